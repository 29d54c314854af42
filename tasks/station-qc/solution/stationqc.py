#!/usr/bin/env python3
"""Reference station QC: units, missing tokens, offsets, split files, range/spike checks, anomalies."""
import csv, io, os, sys
from datetime import datetime, timezone, timedelta

TIME_KEYS = {"time", "timestamp", "datetime", "obs_time", "date_time"}
TEMP_KEYS = {"temp", "temperature", "t2m", "air_temp", "tair"}
MISSING = {"", "na", "n/a", "nan", "null", "-9999", "-9999.0", "-999.9", "m"}
UNITS = {"c": "C", "degc": "C", "°c": "C", "celsius": "C", "f": "F", "degf": "F", "°f": "F",
         "fahrenheit": "F", "k": "K", "kelvin": "K"}


def to_c(v, u):
    return v if u == "C" else (v - 32.0) * 5.0 / 9.0 if u == "F" else v - 273.15


def parse_time(s, tz):
    s = s.strip().replace(" ", "T", 1)
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    d = datetime.fromisoformat(s)
    if d.tzinfo is None:
        d = d.replace(tzinfo=tz)
    return d.astimezone(timezone.utc)


def parse_tz(s):
    s = s.strip().upper()
    if s in ("UTC", "Z", "GMT"):
        return timezone.utc
    s = s.replace("UTC", "")
    sign = -1 if s.startswith("-") else 1
    hh, mm = s.lstrip("+-").split(":") if ":" in s else (s.lstrip("+-")[:2], s.lstrip("+-")[2:] or "0")
    return timezone(sign * timedelta(hours=int(hh), minutes=int(mm)))


def read_file(path, obs):
    meta, body = {}, []
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            if line.startswith("#"):
                if ":" in line:
                    k, v = line[1:].split(":", 1)
                    meta[k.strip().lower()] = v.strip()
            elif line.strip():
                body.append(line)
    station = meta["station"]
    unit = UNITS[meta.get("units", "C").strip().lower()]
    tz = parse_tz(meta.get("tz", "UTC"))
    delim = ";" if body[0].count(";") > body[0].count(",") else ","
    rows = list(csv.reader(io.StringIO("".join(body)), delimiter=delim))
    head = [h.strip().lower() for h in rows[0]]
    ti = next(i for i, h in enumerate(head) if h in TIME_KEYS)
    vi = next(i for i, h in enumerate(head) if h in TEMP_KEYS)
    lst = obs.setdefault(station, {})
    for r in rows[1:]:
        t = parse_time(r[ti], tz)
        raw = r[vi].strip() if vi < len(r) else ""
        if t in lst:
            continue
        if raw.lower() in MISSING:
            lst[t] = None
        else:
            lst[t] = to_c(float(raw.replace(",", ".") if delim == ";" else raw), unit)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: stationqc.py INPUT_DIR OUTPUT.csv")
    d, out = sys.argv[1], sys.argv[2]
    obs, clim = {}, {}
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        if name == "climatology.csv":
            with open(p) as f:
                for r in csv.DictReader(f):
                    clim[(r["station"], int(r["month"]))] = float(r["mean_c"])
        elif name.endswith(".csv"):
            read_file(p, obs)
    rows = []
    for st in sorted(obs):
        days = {}
        prev = None
        for t in sorted(obs[st]):
            v = obs[st][t]
            day = days.setdefault(t.date(), dict(n_obs=0, n_missing=0, n_range=0, n_spike=0, vals=[]))
            day["n_obs"] += 1
            if v is None:
                day["n_missing"] += 1
            elif v < -60 or v > 55:
                day["n_range"] += 1
            elif prev is not None and t - prev[0] <= timedelta(hours=3) and abs(v - prev[1]) > 8:
                day["n_spike"] += 1
            else:
                day["vals"].append(v)
                prev = (t, v)
        for dt in sorted(days):
            x = days[dt]
            vals = x.pop("vals")
            mean = round(sum(vals) / len(vals), 2) if vals else None
            c = clim.get((st, dt.month))
            rows.append([st, dt.isoformat(), x["n_obs"], len(vals), x["n_missing"], x["n_range"], x["n_spike"],
                         "" if mean is None else "%.2f" % mean,
                         "" if not vals else "%.2f" % min(vals), "" if not vals else "%.2f" % max(vals),
                         "" if mean is None or c is None else "%.2f" % (mean - c)])
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["station", "date", "n_obs", "n_valid", "n_missing", "n_range", "n_spike", "mean_c", "min_c", "max_c", "anomaly_c"])
        w.writerows(rows)


if __name__ == "__main__":
    main()
