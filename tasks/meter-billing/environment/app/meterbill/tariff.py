"""Tariffs (tariffs.json): dated versions, time-of-use bands and consumption blocks."""
import json
import os
from datetime import date

from .money import dec

WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def minutes(text):
    h, m = text.split(":")
    return int(h) * 60 + int(m)


class Version:
    def __init__(self, raw):
        self.start = date.fromisoformat(raw["from"])
        self.label = raw["from"]
        self.kind = raw["kind"]
        self.standing = dec(raw["standing"])
        self.bands = []
        for b in raw.get("bands", []):
            self.bands.append({"name": b["name"], "days": set(b["days"]), "lo": minutes(b["from"]),
                               "hi": minutes(b["to"]), "rate": dec(b["rate"])})
        d = raw.get("default")
        self.default = {"name": d["name"], "rate": dec(d["rate"])} if d else None
        self.blocks = [(None if b["upto"] is None else dec(b["upto"]), dec(b["rate"])) for b in raw.get("blocks", [])]


def load_tariffs(folder):
    with open(os.path.join(folder, "tariffs.json"), encoding="utf-8") as f:
        raw = json.load(f)
    return {tid: sorted((Version(v) for v in versions), key=lambda v: v.start) for tid, versions in raw.items()}


def in_force(versions, day):
    """The version in force on a local date."""
    found = None
    for v in versions:
        if v.start < day:
            found = v
    if found is None:
        raise ValueError("no tariff version in force on %s" % day)
    return found


def day_type(day, holidays):
    return "hol" if day.isoformat() in holidays else WEEKDAYS[day.weekday()]


def band_of(version, local_dt, holidays):
    """The first band whose days and [from, to) window hold the local time, else the default."""
    kind = day_type(local_dt.date(), holidays)
    t = local_dt.hour * 60 + local_dt.minute
    for band in version.bands:
        if kind not in band["days"]:
            continue
        lo, hi = band["lo"], band["hi"]
        if lo <= t < hi:
            return band
    return version.default
