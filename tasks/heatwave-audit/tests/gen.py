"""Seeded TGRD archives with planted heatwaves, and the answers known from their construction.

The generator decides which analysis days are hot in every cell first (events, two-day decoys,
runs broken by a missing day), then writes temperatures above or below each cell's threshold to
match. Thresholds are order statistics of the base-period values, taken here with a heap
selection (not a sort). Regional extents and the catalogue verdicts follow from the planted hot
days and the planted catalogue edits.
"""
import heapq
import json
import math
import struct
from datetime import date, timedelta

NOLEAP = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
CAL_NAMES = {"360": ["360_day"], "365": ["noleap", "365_day"],
             "greg": ["standard", "gregorian", "proleptic_gregorian"]}
SENTINELS = (-32768, 32767, -9999, -999)
EXTENT_MIN = 0.3
MIN_DAYS = 3
WINDOW = 2
PCT = 0.9


def month_starts():
    acc, out = 0, []
    for n in NOLEAP:
        out.append(acc)
        acc += n
    return out


MSTART = month_starts()


def calendar_days(cal, y0, years):
    """(iso text, year, day key) for every day of whole years y0 .. y0+years-1."""
    out = []
    if cal == "360":
        for y in range(y0, y0 + years):
            for k in range(360):
                out.append(("%04d-%02d-%02d" % (y, k // 30 + 1, k % 30 + 1), y, k + 1))
    elif cal == "365":
        for y in range(y0, y0 + years):
            for m in range(12):
                for d in range(NOLEAP[m]):
                    out.append(("%04d-%02d-%02d" % (y, m + 1, d + 1), y, MSTART[m] + d + 1))
    else:
        day = date(y0, 1, 1)
        while day.year < y0 + years:
            key = MSTART[day.month - 1] + min(day.day, NOLEAP[day.month - 1])
            out.append((day.isoformat(), day.year, key))
            day += timedelta(days=1)
    return out


def f32(x):
    return struct.unpack(">f", struct.pack(">f", x))[0]


def kth_smallest(vals, k):
    # k-th smallest (1-based) as the smallest of the n-k+1 largest: a heap, not a sort.
    return heapq.nlargest(len(vals) - k + 1, vals)[-1]


def thresholds(days, vals, base, ylen):
    """{key: threshold °C} for one cell from its decoded values (None = missing)."""
    pool = {}
    for (_, y, key), v in zip(days, vals):
        if v is not None and base[0] <= y <= base[1]:
            pool.setdefault(key, []).append(v)
    out = {}
    for key in range(1, ylen + 1):
        win = []
        for off in range(-WINDOW, WINDOW + 1):
            win.extend(pool.get((key - 1 + off) % ylen + 1, []))
        out[key] = kth_smallest(win, int(math.ceil(PCT * len(win) - 1e-9)))
    return out


def runs(flags):
    """(first, last) index pairs of maximal True runs."""
    out, i, n = [], 0, len(flags)
    while i < n:
        if flags[i]:
            j = i
            while j + 1 < n and flags[j + 1]:
                j += 1
            out.append((i, j))
            i = j + 1
        else:
            i += 1
    return out


def build(rng, variant):
    """variant: dict(cal=..., order='<'|'>', units='K'|'C', fill=int[, base_years=n]). Returns (files, truth)."""
    cal, order, units, fill = variant["cal"], variant["order"], variant["units"], variant["fill"]
    nlat, nlon = rng.randint(3, 5), rng.randint(3, 5)
    lat0 = rng.choice([30.0, 32.5, 35.0, 37.5])
    dlat = rng.choice([7.5, 8.0, 9.0, 10.0])
    lats = [lat0 + i * dlat for i in range(nlat)]
    lon0 = rng.choice([-10.0, -5.0, 0.0, 5.0, 12.5])
    dlon = rng.choice([2.5, 5.0, 6.0])
    lons = [lon0 + j * dlon for j in range(nlon)]
    file_lats = lats[::-1] if rng.random() < 0.5 else list(lats)
    nb = variant.get("base_years", 5)
    if cal == "greg":  # a leap year among the two analysis years
        y0 = rng.choice([1961, 1965, 1969, 1973, 1977, 1981, 1985, 1989, 1993]) + rng.choice([0, 1]) + 5 - nb
    else:
        y0 = rng.randint(1960, 1999)
    years = nb + 3
    base, ana = (y0 + 1, y0 + nb), (y0 + nb + 1, y0 + nb + 2)
    days = calendar_days(cal, y0, years)
    ylen = 360 if cal == "360" else 365
    if units == "K":
        scale, offset = f32(rng.choice([0.01, 0.005, 0.02])), f32(rng.choice([273.15, 280.0, 290.0]))
    else:
        scale, offset = f32(rng.choice([0.01, 0.02, 0.05])), f32(rng.choice([0.0, 10.0, 15.0, 20.0]))
    kelvin = 273.15 if units == "K" else 0.0

    def decode(raw):
        return None if raw == fill else raw * scale + offset - kelvin

    def encode(t):
        r = int(round((t + kelvin - offset) / scale))
        return max(-32767, min(32766, r))

    ncell = nlat * nlon
    a_idx = [i for i, d in enumerate(days) if ana[0] <= d[1] <= ana[1]]
    na = len(a_idx)
    raw = {}
    for la in lats:
        for lo in lons:
            anom, col = 0.0, []
            for i, (_, y, key) in enumerate(days):
                anom = 0.7 * anom + rng.gauss(0, 2.0)
                clim = 27 - 0.45 * (la - 30) + 9 * math.sin(2 * math.pi * (key - 110) / ylen)
                t = clim + anom + (2.5 if y == y0 else 0.0)
                r = encode(t)
                if r == fill or rng.random() < 0.015:
                    r = fill
                col.append(r)
            raw[(la, lo)] = col
    thr = {c: thresholds(days, [decode(r) for r in raw[c]], base, ylen) for c in raw}

    # Regions: two or three letters, some cells in none.
    letters = rng.sample(["N", "S", "W", "E", "C", "A", "B"], rng.randint(2, 3))
    names = {"N": "north", "S": "south", "W": "west", "E": "east", "C": "central", "A": "alpine", "B": "basin"}
    region = {}
    for la in lats:
        for lo in lons:
            region[(la, lo)] = None if rng.random() < 0.12 else letters[min(len(letters) - 1, int((la - lat0) / (dlat * nlat) * len(letters) + rng.random() * 0.6))]
    for L in letters:  # every region holds at least two cells, taken from the largest
        while sum(1 for v in region.values() if v == L) < 2:
            count = {M: sum(1 for v in region.values() if v == M) for M in letters}
            big = max(letters, key=lambda M: (count[M], M))
            region[rng.choice([c for c in sorted(region) if region[c] in (None, big) and region[c] != L])] = L

    # Planted hot days (analysis index) and planted missing days per cell.
    hot = {c: [False] * na for c in raw}
    miss = {c: set() for c in raw}
    for L in letters:
        cells = [c for c in sorted(raw) if region[c] == L]
        for _ in range(rng.randint(3, 5)):
            s, ln = rng.randint(5, na - 20), rng.randint(4, 10)
            part = rng.sample(cells, rng.randint(1, len(cells)))
            for c in part:
                a = s + rng.randint(0, 2)
                b = s + ln - rng.randint(0, 2)
                if b - a + 1 < MIN_DAYS:
                    b = a + MIN_DAYS - 1
                for k in range(a, b + 1):
                    hot[c][k] = True
    for c in sorted(raw):
        for _ in range(rng.randint(2, 4)):
            s, ln = rng.randint(1, na - 12), rng.randint(3, 7)
            for k in range(s, s + ln):
                hot[c][k] = True

    def free(c, a, b):
        return all(not hot[c][k] and k not in miss[c] for k in range(max(0, a - 1), min(na, b + 2)))

    for c in sorted(raw):
        for _ in range(rng.randint(4, 6)):  # two-day decoys
            for _try in range(30):
                s = rng.randint(2, na - 4)
                if free(c, s, s + 1):
                    hot[c][s] = hot[c][s + 1] = True
                    break
        for _ in range(2):  # hot, hot, missing, hot, hot
            for _try in range(30):
                s = rng.randint(2, na - 7)
                if free(c, s, s + 4):
                    hot[c][s] = hot[c][s + 1] = hot[c][s + 3] = hot[c][s + 4] = True
                    miss[c].add(s + 2)
                    break
        for _ in range(rng.randint(2, 5)):  # stray missing days
            k = rng.randint(0, na - 1)
            if not hot[c][k]:
                miss[c].add(k)

    for c in raw:
        for j, i in enumerate(a_idx):
            key = days[i][2]
            if j in miss[c]:
                raw[c][i] = fill
                continue
            th = thr[c][key]
            if hot[c][j]:
                r = encode(th + rng.uniform(0.2, 4.0))
                while decode(r) is None or decode(r) <= th + 0.05:
                    r += 1
            else:
                r = encode(th - rng.uniform(0.2, 7.0))
                while decode(r) is None or decode(r) >= th - 0.05:
                    r -= 1
            raw[c][i] = r

    # Truth: cells, thresholds, events, regional events.
    truth = {"cells": {}, "thresholds": {}, "events": {}, "regional": {}, "audit": {}}
    for c in raw:
        vals = [decode(r) for r in raw[c]]
        good = [v for v in vals if v is not None]
        truth["cells"][c] = (len(good), len(vals) - len(good), sum(good) / len(good))
        for key, v in thr[c].items():
            truth["thresholds"][c + (key,)] = v
        flags = [hot[c][j] and j not in miss[c] for j in range(na)]
        for a, b in runs(flags):
            if b - a + 1 >= MIN_DAYS:
                exc = max(decode(raw[c][a_idx[j]]) - thr[c][days[a_idx[j]][2]] for j in range(a, b + 1))
                truth["events"][c + (days[a_idx[a]][0],)] = (days[a_idx[b]][0], b - a + 1, exc)
        hot[c] = [False] * na
        for a, b in runs(flags):
            if b - a + 1 >= MIN_DAYS:
                for j in range(a, b + 1):
                    hot[c][j] = True
    reg_events = []
    for L in letters:
        cells = [c for c in sorted(raw) if region[c] == L]
        wsum = sum(math.cos(math.radians(c[0])) for c in cells)
        ext = [sum(math.cos(math.radians(c[0])) for c in cells if hot[c][j]) / wsum for j in range(na)]
        if any(abs(e - EXTENT_MIN) < 1e-6 for e in ext):
            raise Retry()
        for a, b in runs([e >= EXTENT_MIN for e in ext]):
            if b - a + 1 >= MIN_DAYS:
                pk = max(ext[a:b + 1])
                truth["regional"][(names[L], days[a_idx[a]][0])] = (days[a_idx[b]][0], b - a + 1, pk)
                reg_events.append((names[L], a, b, pk))
    if len(reg_events) < 4:
        raise Retry()

    # Catalogue with planted errors.
    entries = []
    rng.shuffle(reg_events)
    same = {}
    for e in reg_events:
        same.setdefault(e[0], []).append(e)

    def overlaps(name, a, b):
        return [e for e in same[name] if not (b < e[1] or a > e[2])]

    kinds = ["ok", "wrong_dates", "wrong_extent", "missing"]
    for n, (name, a, b, pk) in enumerate(reg_events):
        kind = kinds[n] if n < 4 else rng.choice(["ok", "ok", "wrong_dates", "wrong_extent", "missing"])
        if kind == "wrong_dates":
            for _try in range(20):
                a2 = max(0, a + rng.choice([-2, -1, 0, 1]))
                b2 = min(na - 1, b + rng.choice([-1, 0, 1, 2]))
                if (a2, b2) != (a, b) and a2 <= b2 and len(overlaps(name, a2, b2)) == 1:
                    break
            else:
                a2, b2, kind = a, b, "ok"
            entries.append([name, a2, b2, min(1.0, pk + rng.uniform(-0.002, 0.002)), kind])
        elif kind == "wrong_extent":
            entries.append([name, a, b, min(1.0, max(0.0, pk + rng.choice([-1, 1]) * rng.uniform(0.03, 0.15))), kind])
            if abs(entries[-1][3] - pk) < 0.02:
                entries[-1][3], entries[-1][4] = pk, "ok"
        elif kind == "ok":
            entries.append([name, a, b, min(1.0, pk + rng.uniform(-0.002, 0.002)), kind])
        else:
            truth["audit"][("", name, days[a_idx[a]][0], days[a_idx[b]][0])] = "missing"
    for _ in range(rng.randint(1, 3)):  # spurious entries
        name = rng.choice(sorted(same))
        for _try in range(40):
            a = rng.randint(0, na - 6)
            b = a + rng.randint(2, 5)
            if not overlaps(name, a - 1, b + 1):
                entries.append([name, a, b, rng.uniform(0.3, 0.8), "spurious"])
                break
    rng.shuffle(entries)
    cat = ["event_id,region,start,end,peak_extent"]
    for n, (name, a, b, pk, kind) in enumerate(entries):
        eid = "HW%03d" % (n * 7 + rng.randint(1, 6))
        s, e = days[a_idx[a]][0], days[a_idx[b]][0]
        cat.append("%s,%s,%s,%s,%.4f" % (eid, name, s, e, pk))
        truth["audit"][(eid, name, s, e)] = kind

    # Files.
    text = ["calendar=%s" % rng.choice(CAL_NAMES[cal]), "start=%s" % days[0][0],
            "units=%s" % (rng.choice(["K", "kelvin"]) if units == "K" else rng.choice(["degC", "celsius", "C"])),
            "lats=%s" % ",".join("%g" % v for v in file_lats), "lons=%s" % ",".join("%g" % v for v in lons),
            "dims=time,lat,lon", "variable=tasmax", "institution=regional climate service"]
    if rng.random() < 0.5:
        text.insert(rng.randint(0, len(text)), "history=regridded %d" % rng.randint(1990, 2020))
    body = ("\n".join(text) + "\n").encode()
    hlen = 26 + len(body) + rng.randint(0, 90)
    head = b"TGRD" + bytes([2]) + order.encode() + struct.pack(">HHHIffh", hlen, nlat, nlon, len(days), scale, offset, fill)
    head = head + body + b"\0" * (hlen - 26 - len(body))
    fmt = order + "h" * (nlat * nlon)
    data = b"".join(struct.pack(fmt, *[raw[(la, lo)][i] for la in file_lats for lo in lons]) for i in range(len(days)))
    south_first = sorted(lats)
    north_first = south_first[::-1]
    mask = ["# region mask: one row per latitude from north to south, one character per longitude from west to east",
            "# lats: " + " ".join("%g" % v for v in north_first), "# lons: " + " ".join("%g" % v for v in lons),
            "# legend: " + " ".join("%s=%s" % (L, names[L]) for L in sorted(letters)) + " .=none"]
    for la in north_first:
        mask.append("".join(region[(la, lo)] or "." for lo in lons))
    files = {"tasmax.tgrd": head + data, "regions.txt": ("\n".join(mask) + "\n").encode(),
             "catalogue.csv": ("\n".join(cat) + "\n").encode(),
             "config.json": (json.dumps({"base_period": list(base), "analysis_period": list(ana)}) + "\n").encode()}
    return files, truth


class Retry(Exception):
    """The draw put an extent within rounding of the limit or gave too few events: draw again."""


def build_case(rng, variant):
    for _ in range(20):
        try:
            return build(rng, variant)
        except Retry:
            continue
    raise RuntimeError("no usable draw in 20 tries")
