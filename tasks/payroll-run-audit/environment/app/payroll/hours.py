"""Shift hours, overtime and night hours (policy §2-§3)."""
from collections import defaultdict
from decimal import Decimal

from .money import D, ZERO
from .periods import employed_range, parse_date

NIGHT_END = 6 * 60
NIGHT_START = 22 * 60


def _minutes(hhmm):
    h, m = hhmm.strip().split(":")
    return int(h) * 60 + int(m)


def shift_span(row):
    """(start minute, end minute) from the shift day's midnight; end may pass 1440."""
    s, e = _minutes(row["start"]), _minutes(row["end"])
    if e <= s:
        e += 1440
    return s, e


def night_minutes(s, e):
    """Minutes of [s, e) inside 22:00-06:00 of any day the span touches."""
    total = 0
    for a, b in ((0, NIGHT_END), (NIGHT_START, 1440)):
        total += max(0, min(e, b) - max(s, a))
    return total


def shift_hours(row):
    """(worked hours, night hours) of one shift, breaks off the day part first."""
    s, e = shift_span(row)
    brk = int(D(row.get("break_min") or "0"))
    night = night_minutes(s, e)
    day_part = (e - s) - night
    night_after = night - max(0, brk - day_part)
    return Decimal((e - s) - brk) / 60, Decimal(max(0, night_after)) / 60


def employee_hours(emp, period):
    """dict with regular, overtime, night hours and per-day rows of an hourly employee."""
    cfg = period.company["overtime"]
    daily_cap, weekly_cap = D(cfg["daily_hours"]), D(cfg["weekly_hours"])
    first, last = employed_range(emp, period)
    per_day = defaultdict(lambda: ZERO)
    nights = []
    for row in period.timesheets:
        if row["employee_id"] != emp["employee_id"]:
            continue
        day = parse_date(row["date"])
        if day < first or day > last:
            continue
        worked, nh = shift_hours(row)
        per_day[day] += worked
        nights.append(nh)
    overtime = ZERO
    straight_week = defaultdict(lambda: ZERO)
    for day, worked in per_day.items():
        daily_ot = max(ZERO, worked - daily_cap)
        overtime += daily_ot
        straight_week[period.week_of(day)] += worked
    for week, straight in straight_week.items():
        overtime += max(ZERO, straight - weekly_cap)
    total = sum(per_day.values(), ZERO)
    return {"regular": total - overtime, "overtime": overtime, "night": sum(nights, ZERO), "night_shifts": nights}
