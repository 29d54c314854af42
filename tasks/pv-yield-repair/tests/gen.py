"""Seeded plants, weather files and meter logs for the hidden cases.

Weather is synthesised from a clear-sky shape and a per-hour cloud walk, rounded to the precision
written to the file; the grader's answers are computed from exactly those written values by
pvref.py. Meter logs are built from pvref's hourly expected energy with planted anomalies (each
one's day, kind and size recorded), then the instruction's audit rules are applied to the same
numbers; a case whose rules do not find exactly the planted anomalies is drawn again."""
import json, math
import pvref

MISSING_TOKENS = ("", "NA", "-9999", "nan")


def make_plant(rng, kind):
    south = rng.random() < (0.45 if kind != "plain" else 0.0)
    lat = round(rng.uniform(-45, -12) if south else rng.uniform(15, 60), 3)
    lon = round(rng.uniform(-150, 150), 3)
    zone = round(lon / 15.0)
    if kind == "geometry":
        zone += rng.choice([-1, 0, 1])
    offset = zone + (rng.choice([0.0, 0.5]) if kind in ("geometry", "monthly") else 0.0)
    face = 0.0 if south else 180.0
    az = round((face + rng.uniform(-80, 80)) % 360.0, 1) if kind == "geometry" else round(face + rng.uniform(-20, 20), 1) % 360.0
    dc = round(rng.uniform(400, 4000), 1)
    ratio = rng.uniform(1.25, 1.55) if kind in ("power", "audit") else rng.uniform(1.05, 1.3)
    return {
        "name": "plant-%s-%d" % (kind, rng.randint(100, 999)),
        "latitude": lat, "longitude": lon, "utc_offset_hours": float(offset),
        "tilt_deg": round(rng.uniform(0, 60) if kind == "geometry" else rng.uniform(10, 35), 1),
        "azimuth_deg": az,
        "dc_capacity_kw": dc, "ac_limit_kw": round(dc / ratio, 1),
        "gamma_pdc_pct_per_c": round(rng.uniform(-0.5, -0.25), 3),
        "inverter_efficiency": round(rng.uniform(0.95, 0.985), 3),
        "dc_loss_fraction": round(rng.uniform(0.01, 0.06), 3),
        "albedo": round(rng.uniform(0.12, 0.35), 2),
    }


def synth(rng, plant, start_min, n, step, climate="mild"):
    """n intervals from start_min (local interval starts): {start: dict of values}."""
    rows = {}
    cloud = rng.uniform(0.3, 1.0)
    base = {"mild": (8, 24), "hot": (30, 46), "cold": (-14, 4)}[climate]
    tmin, tmax = base[0] + rng.uniform(-3, 3), base[1] + rng.uniform(-3, 3)
    windy = 9.0 if climate == "cold" else 5.0
    for i in range(n):
        t = start_min + i * step
        if (t % 60) == 0:
            cloud = min(1.0, max(0.05, cloud + rng.uniform(-0.25, 0.25)))
        s, day = pvref.sun_vector(t + step / 2.0 - plant["utc_offset_hours"] * 60.0, plant["latitude"], plant["longitude"])
        up = s[2]
        if up > 0.01:
            am = 1.0 / (up + 0.50572 * (6.07995 + math.degrees(math.asin(min(1.0, up)))) ** -1.6364)
            dni_c = 1367.0 * 0.72 ** (am ** 0.678)
            dni = dni_c * cloud
            dhi = (0.08 + 0.3 * (1.0 - cloud)) * 1000.0 * up * (0.3 + 0.7 * cloud)
            ghi = dni * up + dhi
        else:
            dni = dhi = ghi = 0.0
        hour = ((t % 1440) / 60.0)
        temp = tmin + (tmax - tmin) * (0.5 - 0.5 * math.cos(2 * math.pi * (hour - 3.0) / 24.0)) + rng.uniform(-0.6, 0.6)
        rows[t] = {"ghi": round(ghi, 1), "dni": round(dni, 1), "dhi": round(dhi, 1),
                   "temp_air": round(temp, 1), "wind_speed": round(rng.uniform(0.0, windy), 1)}
    return rows


def render_weather(rng, rows, step, label, components, tokens=("",), station="hidden"):
    """CSV text; rows whose dict is absent are left out of the file. Missing values as tokens."""
    cols = ["ghi", "dni", "dhi", "temp_air", "wind_speed"] if components else ["ghi", "temp_air", "wind_speed"]
    out = ["# station: %s" % station, "# interval_minutes: %d" % step, "# timestamp_label: %s" % label,
           "timestamp," + ",".join(cols)]
    for t in sorted(rows):
        stamp = pvref.text_of(t + (step if label == "end" else 0))
        vals = []
        for c in cols:
            v = rows[t].get(c)
            vals.append(rng.choice(list(tokens)) if v is None else ("%.1f" % v))
        out.append(stamp + "," + ",".join(vals))
    return "\n".join(out) + "\n"


def file_rows(rows, components):
    """What the file says: GHI-only files carry no components."""
    if components:
        return rows
    return {t: {k: v for k, v in r.items() if k not in ("dni", "dhi")} for t, r in rows.items()}


def sunny_month(rng, lat, months):
    """A month of the list, moved to the summer half-year away from the tropics."""
    m = rng.choice(months)
    if abs(lat) > 35 and ((lat > 0) != (4 <= m <= 9)):
        m = (m + 5) % 12 + 1
    return m


def day_start(rng, kind, lat):
    y = rng.choice([2024, 2025])
    m = sunny_month(rng, lat, list(range(1, 13)))
    d = rng.randint(1, 20)
    return pvref.minutes_of("%04d-%02d-%02d 00:00" % (y, m, d))


def interval_case(rng, kind):
    """Returns (files dict, plant, step, rows as written) for the per-interval kinds."""
    plant = make_plant(rng, kind)
    step = rng.choice([10, 10, 60]) if kind != "weather" else rng.choice([10, 60])
    days = 3 if step == 10 else 6
    n = days * 1440 // step
    start = day_start(rng, kind, plant["latitude"])
    climate = rng.choice(["hot", "cold"]) if kind == "power" else "mild"
    rows = synth(rng, plant, start, n, step, climate)
    components = True
    label = "start"
    tokens = ("",)
    if kind == "geometry":
        label = rng.choice(["start", "end"])
    if kind == "power":
        label = rng.choice(["start", "end"])
    if kind == "weather":
        label = "end"
        components = rng.random() < 0.5
        tokens = MISSING_TOKENS
        plan_gaps(rng, rows, step, start, n)
        if components:
            for t in rng.sample(sorted(rows), 12):
                if rows.get(t) and rows[t]["ghi"] is not None:
                    rows[t]["dni" if rng.random() < 0.5 else "dhi"] = None  # GHI-only row inside a full file
        lit = daylight_starts(rows, step, start, n)
        for t in rng.sample(lit, min(10, len(lit))):
            if rows.get(t):
                rows[t]["wind_speed"] = None
    rows = {t: r for t, r in rows.items() if r is not None}
    rows = file_rows(rows, components)
    text = render_weather(rng, rows, step, label, components, tokens)
    return {"plant.json": json.dumps(plant, indent=2) + "\n", "weather.csv": text}, plant, step, rows


def daylight_starts(rows, step, start, n):
    return [start + i * step for i in range(1, n - 1) if rows[start + i * step] and (rows[start + i * step]["ghi"] or 0) > 50]


def plan_gaps(rng, rows, step, start, n):
    """Plants missing runs: exactly 60 min (filled), one step longer (left missing), a lone
    missing value, absent rows, a gap touching the file's first or last interval."""
    per = 60 // step
    day = daylight_starts(rows, step, start, n)
    used = set()

    def run_at(length, how):
        for _ in range(50 if day else 0):
            t0 = rng.choice(day)
            span = [t0 + k * step for k in range(-1, length + 1)]
            if any(s in used or s not in rows or rows[s] is None for s in span):
                continue
            for k in range(length):
                t = t0 + k * step
                if how == "absent":
                    rows[t] = None
                else:
                    rows[t][rng.choice(["ghi", "temp_air"])] = None
            used.update(span)
            return

    run_at(per, "absent")
    run_at(per, "cell")
    run_at(per + 1, "cell" if rng.random() < 0.5 else "absent")
    run_at(1, "cell")
    run_at(per + 2, "absent")
    # a few daylight rows without a wind speed (the 1 m/s default applies)
    for t in rng.sample(day, min(3, len(day))):
        if rows.get(t) is not None:
            rows[t]["wind_speed"] = None
    # an edge gap at the start or the end (cells missing, the row itself still present)
    edge = [start + k * step for k in range(per)] if rng.random() < 0.5 else [start + (n - 1 - k) * step for k in range(per)]
    for t in edge:
        if rows.get(t) is not None:
            rows[t]["temp_air"] = None


def monthly_case(rng):
    plant = make_plant(rng, "monthly")
    step = rng.choice([10, 60])
    y, m = rng.choice([2024, 2025]), sunny_month(rng, plant["latitude"], list(range(1, 12)))
    # from a few days before a month end to a few days into the one after next
    start = pvref.minutes_of("%04d-%02d-%02d 00:00" % (y, m, rng.randint(24, 28)))
    days = 40 if step == 60 else 36
    n = days * 1440 // step
    rows = synth(rng, plant, start, n, step)
    plan_gaps(rng, rows, step, start, n)
    rows = {t: r for t, r in rows.items() if r is not None}
    components = rng.random() < 0.5
    rows = file_rows(rows, components)
    text = render_weather(rng, rows, step, rng.choice(["start", "end"]), components, MISSING_TOKENS)
    return {"plant.json": json.dumps(plant, indent=2) + "\n", "weather.csv": text}, plant, step, rows


def read_rows(text):
    """The weather rows as the file states them (the grader's reading, for rendering answers)."""
    meta, lines = {}, []
    for line in text.splitlines():
        if line.startswith("#"):
            k, v = line[1:].split(":", 1)
            meta[k.strip()] = v.strip()
        elif line.strip():
            lines.append(line.split(","))
    step = int(meta["interval_minutes"])
    back = step if meta["timestamp_label"] == "end" else 0
    head = lines[0]
    rows = {}
    for rec in lines[1:]:
        d = dict(zip(head, rec))
        vals = {}
        for c in ("ghi", "dni", "dhi", "temp_air", "wind_speed"):
            if c in d:
                v = d[c].strip()
                vals[c] = None if v in MISSING_TOKENS else float(v)
        rows[pvref.minutes_of(d["timestamp"]) - back] = vals
    return step, rows


# ---------------------------------------------------------------- monthly table (grader side)

def month_table(plant, step, rows):
    res = pvref.expected(plant, step, rows)
    acc = {}
    for t, status, r, ac in res:
        key = pvref.text_of(t)[:7]
        a = acc.setdefault(key, [0.0, 0.0, 0])
        if status == "missing":
            a[2] += 1
        else:
            a[0] += ac
            a[1] += r["clip_kwh"] if r else 0.0
    return {k: (v[0], v[1], v[2] * step / 60.0, v[0] / plant["dc_capacity_kw"]) for k, v in acc.items()}


# ---------------------------------------------------------------- audit cases

CODES = ("clipping_loss", "curtailment", "meter_timestamp_shift", "outage", "soiling_drift")


def hourly_energy(plant, step, rows):
    res = pvref.expected(plant, step, rows)
    per = 60 // step
    acc = {}
    for t, status, r, ac in res:
        h = t - t % 60
        a = acc.setdefault(h, [0, 0.0, 0.0, False])
        a[0] += 1
        if status == "missing":
            a[3] = True
        else:
            a[1] += ac
            a[2] += r["clip_kwh"] if r else 0.0
    return {h: (a[1], a[2]) for h, a in acc.items() if a[0] == per and not a[3]}


def apply_rules(plant, hourly, meter, orders):
    """The instruction's audit rules over hourly expected energy and metered energy (dict of
    hour-start minute -> kWh). Returns sorted [(date, code, value)]."""
    P = plant["ac_limit_kw"]
    day_keys = sorted({h - h % 1440 for h in meter})
    if not day_keys:
        return []
    found, clean = [], []
    for d0 in day_keys:
        hs = [d0 + 60 * k for k in range(24)]
        if any(h not in hourly or h not in meter for h in hs):
            continue
        exp_ = [hourly[h][0] for h in hs]
        met = [meter[h] for h in hs]
        day = pvref.text_of(d0)[:10]
        clipped = sum(hourly[h][1] for h in hs)
        tot = sum(exp_)
        if tot > 0 and clipped >= 0.01 * tot:
            found.append((day, "clipping_loss", clipped))
        dark = [k for k in range(24) if exp_[k] >= 0.05 * P and met[k] <= 0.0005]
        if dark:
            found.append((day, "outage", sum(exp_[k] for k in dark)))
            continue
        cur = []
        for k, h in enumerate(hs):
            lims = [lim for a, b, lim in orders if a <= h and h + 60 <= b]
            if lims and exp_[k] > lims[0] and met[k] <= lims[0] * 1.005:
                cur.append(exp_[k] - met[k])
        if cur:
            found.append((day, "curtailment", sum(cur)))
            continue
        pe = [k for k in range(24) if exp_[k] >= 0.02 * P]
        pm = [k for k in range(24) if met[k] >= 0.02 * P]
        if pe and pm and pm[0] - pe[0] == pm[-1] - pe[-1] and pm[0] != pe[0]:
            found.append((day, "meter_timestamp_shift", pm[0] - pe[0]))
            continue
        if tot > 0:
            clean.append((d0, day, tot, sum(met)))
    refs = sorted(m / e for d0, day, e, m in clean if d0 - day_keys[0] < 14 * 1440)
    if refs:
        c = len(refs)
        pr = refs[c // 2] if c % 2 == 1 else 0.5 * (refs[c // 2 - 1] + refs[c // 2])
        for d0, day, e, m in clean:
            if m / e < 0.97 * pr:
                found.append((day, "soiling_drift", e * pr - m))
    return sorted(found, key=lambda x: (x[0], x[1]))


def audit_case(rng, want=None):
    for attempt in range(120 if want is None else 400):
        built = try_audit(rng, want)
        if built is not None:
            return built
    raise RuntimeError("no audit case with the planted anomalies found")


def try_audit(rng, want=None):
    plant = make_plant(rng, "audit")
    step = rng.choice([10, 60])
    if want is not None and not want(plant, step):
        return None
    y, m = rng.choice([2024, 2025]), rng.choice([3, 4, 5, 6, 7, 8, 9])
    days = rng.randint(34, 42)
    start = pvref.minutes_of("%04d-%02d-01 00:00" % (y, m))
    n = days * 1440 // step
    rows = synth(rng, plant, start, n, step)
    # one unfillable weather gap (two daylight hours absent): that day is not audited
    gap_day = rng.randint(3, days - 2)
    for k in range(120 // step):
        rows.pop(start + gap_day * 1440 + 11 * 60 + k * step, None)
    # and one 60-minute gap, filled by interpolation
    fill_day = (gap_day + rng.randint(2, 9)) % days
    for k in range(60 // step):
        rows.pop(start + fill_day * 1440 + 14 * 60 + k * step, None)
    components = rng.random() < 0.6
    rows = file_rows(rows, components)
    # the file starts with an hour without air temperature (an edge gap: never filled), and a
    # few daylight rows carry no wind speed
    for k in range(60 // step):
        rows[start + k * step]["temp_air"] = None
    bright = [t for t in sorted(rows) if rows[t]["ghi"] > 150]
    for t in rng.sample(bright, min(5, len(bright))):
        rows[t]["wind_speed"] = None
    hourly = hourly_energy(plant, step, rows)
    P = plant["ac_limit_kw"]
    k_plant = rng.uniform(0.955, 0.99)
    plan = {}  # day index -> (code, detail)
    free = [d for d in range(1, days - 1) if d != gap_day]
    rng.shuffle(free)
    outages, shifts, curtails = free[0:2], free[2:4], free[4:6]
    soil_from = rng.randint(17, days - 8)
    meter = {}
    orders = []
    for d in range(days):
        d0 = start + d * 1440
        for kk in range(24):
            h = d0 + 60 * kk
            e = hourly.get(h)
            if e is None:
                # hours without a weather estimate still carry a plausible reading
                e = hourly.get(h - 1440, (0.0, 0.0))
            f = k_plant * (1.0 + rng.uniform(-0.004, 0.004))
            if d >= soil_from:
                f *= 1.0 - 0.045 - 0.004 * (d - soil_from)
            src = e[0]
            if d in shifts:
                s = plan.setdefault(d, ("meter_timestamp_shift", rng.choice([-1, 1, 2])))[1]
                prev = hourly.get(h - 60 * s)
                src = prev[0] if prev else 0.0
            meter[h] = src * f
        if d in outages:
            bright = [kk for kk in range(24) if hourly.get(d0 + 60 * kk, (0, 0))[0] >= 0.12 * P]
            if len(bright) >= 3:
                a = rng.randint(0, len(bright) - 2)
                for kk in bright[a:a + rng.randint(1, 3)]:
                    meter[d0 + 60 * kk] = 0.0
                plan[d] = ("outage", None)
        if d in curtails:
            es = [(hourly.get(d0 + 60 * kk, (0, 0))[0], kk) for kk in range(24)]
            top = max(es)
            if top[0] > 0.3 * P:
                lim = round(top[0] * rng.uniform(0.55, 0.75), 1)
                a, b = d0 + 60 * (top[1] - 2), d0 + 60 * (top[1] + 2)
                orders.append((a, b, lim))
                for h in range(a, b, 60):
                    meter[h] = min(meter[h], lim * rng.uniform(0.985, 0.999))
                plan[d] = ("curtailment", None)
    # a missing meter hour: that day is not audited either
    miss_day = free[6]
    meter.pop(start + miss_day * 1440 + 60 * rng.randint(8, 15), None)
    meter = {h: round(v, 3) for h, v in meter.items()}
    found = apply_rules(plant, hourly, meter, orders)
    by_day = {}
    for day, code, val in found:
        if code != "clipping_loss":
            by_day[day] = (code, val)
    # every planted anomaly is found as planted, and nothing else is flagged before the soiling
    for d in range(days):
        if d in (gap_day, miss_day):
            continue
        day = pvref.text_of(start + d * 1440)[:10]
        want = plan.get(d)
        got = by_day.get(day)
        if want is not None:
            if got is None or got[0] != want[0] or (want[1] is not None and got[1] != want[1]):
                return None
        elif d >= soil_from:
            if got is None or got[0] != "soiling_drift":
                return None
        elif got is not None:
            return None
    if not any(c == "clipping_loss" for _, c, _ in found):
        return None
    label = rng.choice(["start", "end"])
    text = render_weather(rng, rows, step, label, components)
    mlines = ["# meter: export revenue meter", "# interval_minutes: 60", "# timestamp_label: end", "timestamp,ac_kwh"]
    for h in sorted(meter):
        mlines.append("%s,%.3f" % (pvref.text_of(h + 60), meter[h]))
    clines = ["start,end,limit_kw"] + ["%s,%s,%.1f" % (pvref.text_of(a), pvref.text_of(b), lim) for a, b, lim in orders]
    files = {"plant.json": json.dumps(plant, indent=2) + "\n", "weather.csv": text,
             "meter.csv": "\n".join(mlines) + "\n", "curtailment.csv": "\n".join(clines) + "\n"}
    return files, plant, found
