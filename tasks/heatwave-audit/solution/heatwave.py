#!/usr/bin/env python3
"""Reference heatwave audit: TGRD reader, day-of-year p90 thresholds, cell and regional events, catalogue audit."""
import csv
import datetime as dt
import json
import math
import os
import struct
import sys

MONTH_LEN = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
CUM = [sum(MONTH_LEN[:m]) for m in range(12)]


class Archive:
    def __init__(self, path):
        with open(path, "rb") as fh:
            blob = fh.read()
        if blob[:4] != b"TGRD":
            raise ValueError("not a TGRD file")
        self.order = chr(blob[5])
        (hlen, self.nlat, self.nlon, self.ntime, scale, offset, self.fill) = struct.unpack(">HHHIffh", blob[6:26])
        meta = {}
        for line in blob[26:hlen].split(b"\0")[0].decode().splitlines():
            if "=" in line:
                k, v = line.split("=", 1)
                meta[k.strip().lower()] = v.strip()
        self.meta = meta
        self.lats = [float(x) for x in meta["lats"].split(",")]
        self.lons = [float(x) for x in meta["lons"].split(",")]
        unit = meta.get("units", "K").lower()
        shift = 273.15 if unit in ("k", "kelvin") else 0.0
        count = self.nlat * self.nlon * self.ntime
        raws = struct.unpack("%s%dh" % (self.order, count), blob[hlen:hlen + 2 * count])
        ncell = self.nlat * self.nlon
        self.series = {}
        for i, la in enumerate(self.lats):
            for j, lo in enumerate(self.lons):
                col = raws[i * self.nlon + j::ncell]
                self.series[(la, lo)] = [None if r == self.fill else r * scale + offset - shift for r in col]
        self.calendar = meta.get("calendar", "standard").lower()
        self.dates = self._dates(meta["start"])

    def _dates(self, start):
        y, m, d = (int(x) for x in start.split("-"))
        out = []
        if self.calendar == "360_day":
            n0 = (m - 1) * 30 + (d - 1)
            for t in range(self.ntime):
                n = n0 + t
                yy, r = y + n // 360, n % 360
                out.append((yy, r // 30 + 1, r % 30 + 1, r + 1))
        elif self.calendar in ("noleap", "365_day"):
            n0 = CUM[m - 1] + d - 1
            for t in range(self.ntime):
                n = n0 + t
                yy, r = y + n // 365, n % 365
                mm = max(k for k in range(12) if CUM[k] <= r)
                out.append((yy, mm + 1, r - CUM[mm] + 1, r + 1))
        else:
            first = dt.date(y, m, d)
            for t in range(self.ntime):
                day = first + dt.timedelta(days=t)
                dd = 28 if (day.month == 2 and day.day == 29) else day.day
                out.append((day.year, day.month, day.day, CUM[day.month - 1] + dd))
        return out

    @property
    def year_len(self):
        return 360 if self.calendar == "360_day" else 365


def iso(d):
    return "%04d-%02d-%02d" % d[:3]


def runs_of(flags):
    start = None
    for i, f in enumerate(list(flags) + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            yield start, i - 1
            start = None


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: heatwave.py INPUT_DIR OUTPUT_DIR")
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    arc = Archive(os.path.join(src, "tasmax.tgrd"))
    with open(os.path.join(src, "config.json")) as fh:
        cfg = json.load(fh)
    b0, b1 = cfg["base_period"]
    a0, a1 = cfg["analysis_period"]
    L = arc.year_len
    cells = sorted(arc.series)

    with open(os.path.join(dst, "cells.csv"), "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["lat", "lon", "n_valid", "n_missing", "mean_c"])
        for c in cells:
            good = [v for v in arc.series[c] if v is not None]
            w.writerow(["%g" % c[0], "%g" % c[1], len(good), len(arc.series[c]) - len(good),
                        "%.3f" % (sum(good) / len(good)) if good else ""])

    thr = {}
    for c in cells:
        bykey = [[] for _ in range(L + 1)]
        for d, v in zip(arc.dates, arc.series[c]):
            if v is not None and b0 <= d[0] <= b1:
                bykey[d[3]].append(v)
        for key in range(1, L + 1):
            window = sorted(v for o in range(-2, 3) for v in bykey[(key - 1 + o) % L + 1])
            thr[(c, key)] = window[math.ceil(0.9 * len(window) - 1e-9) - 1] if window else None
    with open(os.path.join(dst, "thresholds.csv"), "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["lat", "lon", "doy", "threshold_c"])
        for c in cells:
            for key in range(1, L + 1):
                t = thr[(c, key)]
                w.writerow(["%g" % c[0], "%g" % c[1], key, "" if t is None else "%.3f" % t])

    idx = [i for i, d in enumerate(arc.dates) if a0 <= d[0] <= a1]
    hot = {}
    events = []
    for c in cells:
        series = arc.series[c]
        exceed = []
        for i in idx:
            v, t = series[i], thr[(c, arc.dates[i][3])]
            exceed.append(v is not None and t is not None and v > t)
        mark = [False] * len(idx)
        for s, e in runs_of(exceed):
            if e - s + 1 >= 3:
                ex = max(series[idx[k]] - thr[(c, arc.dates[idx[k]][3])] for k in range(s, e + 1))
                events.append((c, iso(arc.dates[idx[s]]), iso(arc.dates[idx[e]]), e - s + 1, ex))
                for k in range(s, e + 1):
                    mark[k] = True
        hot[c] = mark
    with open(os.path.join(dst, "events.csv"), "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["lat", "lon", "start", "end", "days", "max_excess_c"])
        for c, s, e, n, ex in events:
            w.writerow(["%g" % c[0], "%g" % c[1], s, e, n, "%.3f" % ex])

    # Region mask: rows north to south as listed in its own header.
    legend, mlats, mlons, rows = {}, [], [], []
    with open(os.path.join(src, "regions.txt")) as fh:
        for line in fh:
            line = line.rstrip("\n")
            if line.startswith("#"):
                body = line[1:].strip()
                if body.startswith("lats:"):
                    mlats = [float(x) for x in body[5:].split()]
                elif body.startswith("lons:"):
                    mlons = [float(x) for x in body[5:].split()]
                elif body.startswith("legend:"):
                    for tok in body[7:].split():
                        k, v = tok.split("=", 1)
                        if v != "none":
                            legend[k] = v
            elif line.strip():
                rows.append(line.strip())
    members = {}
    for la, row in zip(mlats, rows):
        for lo, ch in zip(mlons, row):
            if ch in legend:
                members.setdefault(legend[ch], []).append((la, lo))
    regional = []
    for name in sorted(members):
        mem = [min(cells, key=lambda c: abs(c[0] - la) + abs(c[1] - lo)) for la, lo in members[name]]
        wts = {c: math.cos(math.radians(c[0])) for c in mem}
        total = sum(wts.values())
        ext = [sum(wts[c] for c in mem if hot[c][k]) / total for k in range(len(idx))]
        for s, e in runs_of([x >= 0.3 for x in ext]):
            if e - s + 1 >= 3:
                regional.append((name, s, e, max(ext[s:e + 1])))
    with open(os.path.join(dst, "regional.csv"), "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["region", "start", "end", "days", "peak_extent"])
        for name, s, e, pk in regional:
            w.writerow([name, iso(arc.dates[idx[s]]), iso(arc.dates[idx[e]]), e - s + 1, "%.4f" % pk])

    # Catalogue audit.
    pos = {iso(arc.dates[i]): k for k, i in enumerate(idx)}
    seen = set()
    out = []
    with open(os.path.join(src, "catalogue.csv"), newline="") as fh:
        for r in csv.DictReader(fh):
            name, s, e = r["region"].strip(), r["start"].strip(), r["end"].strip()
            ks, ke = pos.get(s), pos.get(e)
            best, share = None, 0
            for ev in regional:
                if ev[0] != name or ks is None or ke is None:
                    continue
                n = min(ke, ev[2]) - max(ks, ev[1]) + 1
                if n > 0:
                    seen.add(ev)
                if n > share:
                    best, share = ev, n
            if best is None:
                verdict = "spurious"
            else:
                if (best[1], best[2]) != (ks, ke):
                    verdict = "wrong_dates"
                elif abs(float(r["peak_extent"]) - best[3]) > 0.005:
                    verdict = "wrong_extent"
                else:
                    verdict = "ok"
            out.append([r["event_id"].strip(), name, s, e, verdict])
    for ev in regional:
        if ev not in seen:
            out.append(["", ev[0], iso(arc.dates[idx[ev[1]]]), iso(arc.dates[idx[ev[2]]]), "missing"])
    with open(os.path.join(dst, "audit.csv"), "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["event_id", "region", "start", "end", "verdict"])
        w.writerows(out)


if __name__ == "__main__":
    main()
