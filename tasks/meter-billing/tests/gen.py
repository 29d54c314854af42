"""Seeded meter-reading bundles rendered from ground-truth UTC readings.

The answer is planted: every interval's UTC instants and kWh are chosen here, and the file is
written from them (local wall times, offsets, units, wraps, exchanges, duplicates, gaps).
"""
import json
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

ZONES = ["Europe/Berlin", "Europe/London", "America/New_York", "Australia/Sydney"]
# DST transitions (UTC instants) in 2026 for each zone: (spring-forward, fall-back).
TRANSITIONS = {
    "Europe/Berlin": [datetime(2026, 3, 29, 1, tzinfo=timezone.utc), datetime(2026, 10, 25, 1, tzinfo=timezone.utc)],
    "Europe/London": [datetime(2026, 3, 29, 1, tzinfo=timezone.utc), datetime(2026, 10, 25, 1, tzinfo=timezone.utc)],
    "America/New_York": [datetime(2026, 3, 8, 7, tzinfo=timezone.utc), datetime(2026, 11, 1, 6, tzinfo=timezone.utc)],
    "Australia/Sydney": [datetime(2026, 4, 4, 16, tzinfo=timezone.utc), datetime(2026, 10, 3, 16, tzinfo=timezone.utc)],
}
MARKS = ["06:00", "07:00", "08:00", "11:00", "16:00", "17:00", "19:00", "21:00", "22:00"]


def tariff(rng):
    a, b = sorted(rng.sample(MARKS, 2))
    c = rng.choice(["00:00", "05:00", "23:00"])
    bands = [{"name": "peak", "days": ["mon", "tue", "wed", "thu", "fri"], "from": a, "to": b, "price": round(rng.uniform(0.3, 0.45), 4)},
             {"name": "weekend", "days": ["sat", "sun"], "from": "08:00", "to": "20:00", "price": round(rng.uniform(0.2, 0.3), 4)}]
    if c == "23:00":
        bands.append({"name": "night", "days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "from": "23:00", "to": "24:00", "price": round(rng.uniform(0.1, 0.18), 4)})
    else:
        bands.append({"name": "night", "days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "from": c, "to": "06:00" if c == "05:00" else "01:00", "price": round(rng.uniform(0.1, 0.18), 4)})
    return {"bands": bands, "default": {"name": "standard", "price": round(rng.uniform(0.22, 0.3), 4)},
            "standing_charge_per_day": round(rng.uniform(0.3, 0.6), 4)}


def meter(rng, kind, idx):
    tzname = rng.choice(ZONES)
    tz = ZoneInfo(tzname)
    if kind == "dst":
        tr = rng.choice(TRANSITIONS[tzname])
        start = tr - timedelta(hours=rng.randint(20, 40))
    else:
        start = datetime(2026, rng.choice([1, 2, 5, 6, 7, 8, 12]), rng.randint(1, 25), rng.randint(0, 23), tzinfo=timezone.utc)
    step = rng.choice([15, 30, 60])
    t, readings = start, []
    end = start + timedelta(hours=rng.randint(50, 80) if kind != "dst" else rng.randint(30, 44))
    while t < end:
        readings.append(t)
        gap = step if (kind == "plain" or rng.random() < 0.85) else step * rng.randint(2, 8)
        # No long gaps next to a transition: a reading in the repeated fall-back hour is only
        # unambiguous when the previous reading is at most an hour earlier.
        if any(x - timedelta(hours=3) < t + timedelta(minutes=gap) and t < x + timedelta(hours=3) for x in TRANSITIONS[tzname]):
            gap = step
        t += timedelta(minutes=gap)
    unit = "kWh" if kind in ("plain", "dst") else rng.choice(["Wh", "kWh", "MWh"])
    scale = {"Wh": 1000.0, "kWh": 1.0, "MWh": 0.001}[unit]
    roll = None
    reg_kwh = rng.uniform(100, 5000)
    intervals, regs = [], []
    # Away from both ends; a short bundle (under 20 readings, rare: long gaps at a 60-minute step)
    # puts it mid-way. Bundles of 20 or more draw exactly as they always have.
    n = len(readings)
    rollover_at = rng.randint(min(10, n // 2), max(n - 10, n // 2)) if kind == "units" else None
    reset = kind == "units" and rng.random() < 0.4
    for i, tt in enumerate(readings):
        if i:
            e = round(rng.uniform(0.01, 1.5) * (tt - readings[i - 1]).total_seconds() / 3600, 3)
            reg_kwh += e
            intervals.append([readings[i - 1], tt, e])
        regs.append(reg_kwh)
    dec = {"Wh": 0, "kWh": 3, "MWh": 6}[unit]
    raw = [round(r * scale, dec) for r in regs]
    # Planted consumption: what the never-wrapped register says (rounded as rendered), in kWh. The
    # rendering below wraps or resets the register; the consumption stays as planted here, except
    # that the interval across a meter exchange is lost.
    for i in range(1, len(raw)):
        intervals[i - 1][2] = (raw[i] - raw[i - 1]) / scale
    if rollover_at is not None:
        if reset:
            # Meter exchanged: the register restarts near zero, that interval's consumption is lost.
            off = raw[rollover_at] - round(rng.uniform(0, 5) * scale, dec)
            raw = raw[:rollover_at] + [round(x - off, dec) for x in raw[rollover_at:]]
            intervals[rollover_at - 1][2] = 0.0
        else:
            roll = round(raw[rollover_at] - (raw[rollover_at] - raw[rollover_at - 1]) * rng.uniform(0.2, 0.8), dec)
            raw = raw[:rollover_at] + [round(x - roll, dec) for x in raw[rollover_at:]]
    lines = ["# meter: MTR-%04d" % rng.randint(0, 9999), "# unit: %s" % unit, "# tz: %s" % tzname]
    if roll is not None:
        lines.append("# rollover: %s" % (("%." + str(dec) + "f") % roll))
    lines.append("timestamp,register")
    for i, (tt, r) in enumerate(zip(readings, raw)):
        loc = tt.astimezone(tz)
        if kind == "formats" and rng.random() < 0.25:
            ts = loc.isoformat()
        else:
            ts = loc.strftime("%Y-%m-%d %H:%M" if kind != "formats" or rng.random() < 0.5 else "%Y-%m-%dT%H:%M:%S")
        val = ("%." + str(dec) + "f") % r
        lines.append("%s,%s" % (ts, val))
        if kind == "formats" and rng.random() < 0.05:
            lines.append("%s,%s" % (ts, val))  # exact duplicate row
        if kind == "formats" and rng.random() < 0.04:
            lines.append("%s,%s" % (ts, rng.choice(["", "NA", "-"])))  # missing register value
    name = lines[0].split(": ")[1]
    return name, tzname, [(a, b, e) for a, b, e in intervals], "\n".join(lines) + "\n"


def build(rng, kind):
    """kind: plain | dst | units | formats."""
    tar = tariff(rng)
    files, meters = {"tariff.json": json.dumps(tar, indent=1).encode()}, []
    for i in range(rng.randint(2, 3)):
        name, tzname, intervals, text = meter(rng, kind, i)
        if any(m[0] == name for m in meters):  # ids must be unique (they name the files too)
            text = text.replace("# meter: %s\n" % name, "# meter: %s-%d\n" % (name, i), 1)
            name = "%s-%d" % (name, i)
        files["%s.csv" % name.lower()] = text.encode()
        meters.append((name, tzname, intervals))
    return files, meters, tar
