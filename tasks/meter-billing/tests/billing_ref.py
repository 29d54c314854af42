"""Reference integration over ground-truth UTC intervals: split at local midnights and band edges."""
import csv, io, json, os, sys
from datetime import datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

UNITS = {"wh": 0.001, "kwh": 1.0, "mwh": 1000.0}
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
MISSING = {"", "na", "nan", "null", "-"}


def parse_hm(s):
    h, m = s.split(":")
    return int(h) * 60 + int(m)


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



def expected(meters, tariff):
    """meters: list of (meter, tz name, [(a_utc, b_utc, kwh)]). Returns (bill {(m, d, band): kwh}, summary)."""
    bill, prices, hours = {}, {}, {}
    for meter, tzname, intervals in meters:
        tz = ZoneInfo(tzname)
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
    bill = {k: v for k, v in bill.items() if round(v, 4) > 0}
    summary = {}
    for (m, d, b), v in bill.items():
        s = summary.setdefault(m, {"kwh": 0.0, "cost": 0.0, "days": set()})
        s["kwh"] += v
        s["cost"] += v * prices[b]
        s["days"].add(d)
    for m, s in summary.items():
        s["days"] = len(s["days"])
        s["cost"] += s["days"] * tariff["standing_charge_per_day"]
    days = {k: (h, sum(v for (m2, d2, _), v in bill.items() if (m2, d2) == k)) for k, h in hours.items()}
    return bill, summary, days
