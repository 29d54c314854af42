#!/usr/bin/env python3
"""Smart-meter billing: register deltas spread uniformly over time, split at local midnights and
time-of-use band boundaries (DST-aware via zoneinfo)."""
import csv, io, json, os, sys
from datetime import datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

UNITS = {"wh": 0.001, "kwh": 1.0, "mwh": 1000.0}
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
MISSING = {"", "na", "nan", "null", "-"}


def parse_hm(s):
    h, m = s.split(":")
    return int(h) * 60 + int(m)


def read_meter(path):
    meta, body = {}, []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#"):
            k, _, v = line[1:].partition(":")
            meta[k.strip().lower()] = v.strip()
        elif line.strip():
            body.append(line)
    tz = ZoneInfo(meta["tz"])
    scale = UNITS[meta.get("unit", "kWh").lower()]
    roll = float(meta["rollover"]) if "rollover" in meta else None
    rows = list(csv.reader(io.StringIO("".join(body))))
    out, prev_txt, prev_utc = [], None, None
    for r in rows[1:]:
        ts, reg = r[0].strip(), r[1].strip()
        if reg.lower() in MISSING:
            continue
        v = float(reg)
        if (ts, v) == prev_txt:
            continue
        d = datetime.fromisoformat(ts.replace(" ", "T"))
        if d.tzinfo is None:
            u = d.replace(tzinfo=tz).astimezone(timezone.utc)
            if prev_utc is not None and u <= prev_utc:
                u = d.replace(tzinfo=tz, fold=1).astimezone(timezone.utc)
        else:
            u = d.astimezone(timezone.utc)
        if prev_utc is not None and u <= prev_utc:
            continue
        out.append((u, v))
        prev_txt, prev_utc = (ts, v), u
    intervals = []
    for (a, ra), (b, rb) in zip(out, out[1:]):
        dlt = rb - ra
        if dlt < 0:
            dlt = dlt + roll if roll is not None else 0.0
        intervals.append((a, b, dlt * scale))
    return meta["meter"], tz, intervals


def band_of(local, tariff):
    wd = DAYS[local.weekday()]
    m = local.hour * 60 + local.minute + local.second / 60.0
    for b in tariff["bands"]:
        if wd in b["days"] and parse_hm(b["from"]) <= m < parse_hm(b["to"]):
            return b["name"], b["price"]
    return tariff["default"]["name"], tariff["default"]["price"]


def cuts(a, b, tz, tariff):
    pts = set()
    d = a.astimezone(tz).date() - timedelta(days=1)
    end = b.astimezone(tz).date() + timedelta(days=1)
    marks = {0} | {parse_hm(x[k]) for x in tariff["bands"] for k in ("from", "to")}
    while d <= end:
        for mm in marks:
            dd = d + timedelta(days=mm // 1440)
            t = datetime.combine(dd, time(mm % 1440 // 60, mm % 60), tzinfo=tz).astimezone(timezone.utc)
            if a < t < b:
                pts.add(t)
        d += timedelta(days=1)
    return [a] + sorted(pts) + [b]


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    tariff = json.load(open(os.path.join(src, "tariff.json")))
    bill, prices, hours = {}, {}, {}
    for f in sorted(os.listdir(src)):
        if not f.endswith(".csv"):
            continue
        meter, tz, intervals = read_meter(os.path.join(src, f))
        for a, b, e in intervals:
            span = (b - a).total_seconds()
            pts = cuts(a, b, tz, tariff)
            for p, q in zip(pts, pts[1:]):
                mid = (p + (q - p) / 2).astimezone(tz)
                name, price = band_of(mid, tariff)
                key = (meter, mid.date().isoformat(), name)
                bill[key] = bill.get(key, 0.0) + e * (q - p).total_seconds() / span
                prices[name] = price
                dk = (meter, mid.date().isoformat())
                hours[dk] = hours.get(dk, 0.0) + (q - p).total_seconds() / 3600.0
    rows = sorted((k, v) for k, v in bill.items() if round(v, 4) > 0)
    with open(os.path.join(out, "bill.csv"), "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["meter", "date", "band", "kwh"])
        for (m, d, b), v in rows:
            w.writerow([m, d, b, "%.4f" % v])
    with open(os.path.join(out, "days.csv"), "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["meter", "date", "hours", "kwh"])
        for (m, d) in sorted(hours):
            w.writerow([m, d, "%.4f" % hours[(m, d)], "%.4f" % sum(v for (m2, d2, _), v in bill.items() if (m2, d2) == (m, d))])
    summary = {}
    for (m, d, b), v in rows:
        s = summary.setdefault(m, {"kwh": 0.0, "cost": 0.0, "days": set()})
        s["kwh"] += v
        s["cost"] += v * prices[b]
        s["days"].add(d)
    for m, s in summary.items():
        nd = len(s["days"])
        s.update(kwh=round(s["kwh"], 4), cost=round(s["cost"] + nd * tariff["standing_charge_per_day"], 2), days=nd)
    json.dump(summary, open(os.path.join(out, "summary.json"), "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
