"""Register read files: reads/<meter>.csv (BILLING.md section 2)."""
import os
from datetime import datetime, timedelta, timezone

from .money import wh_of

SLOT_SECONDS = 1800


def parse_ts(text):
    text = text.strip()
    if text.endswith("Z"):
        text = text[:-1]
    return datetime.strptime(text, "%Y-%m-%dT%H:%M").replace(tzinfo=timezone.utc)


class Register:
    """One meter's reads: (instant, Wh, flag) in file order, and the register's digit count."""

    def __init__(self, meter, digits, rows):
        self.meter = meter
        self.digits = digits
        self.rows = rows

    @property
    def modulus(self):
        return 10 ** self.digits * 1000


def load_register(folder, meter):
    path = os.path.join(folder, "reads", meter + ".csv")
    digits = 6
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                key, _, value = line[1:].partition(":")
                if key.strip().lower() == "digits":
                    digits = int(value)
                continue
            ts, reg, flag = [c.strip() for c in line.split(",")]
            if ts == "timestamp":
                continue
            rows.append((parse_ts(ts), wh_of(reg), flag.upper()))
    return Register(meter, digits, rows)


def points(register):
    """Usable reads as (instant, Wh arriving, Wh leaving), one per instant (the latest row wins)."""
    latest = {}
    for ts, wh, flag in register.rows:
        latest[ts] = wh
    return [(ts, wh, wh) for ts, wh in sorted(latest.items())]


def consumption(register, a, b):
    """Wh between a read leaving `a` and the next arriving `b`."""
    delta = b - a
    if delta < 0:
        # the register restarted from zero
        delta = b
    return delta


def slot_usage(register):
    """{UTC slot start: Wh}: each interval's consumption spread over its half-hour slots."""
    usage = {}
    pts = points(register)
    for (t0, _, out0), (t1, in1, _) in zip(pts, pts[1:]):
        k = int((t1 - t0).total_seconds()) // SLOT_SECONDS
        if k <= 0:
            continue
        each = round(consumption(register, out0, in1) / k)
        for i in range(k):
            usage[t0 + timedelta(seconds=SLOT_SECONDS * i)] = each
    return usage
