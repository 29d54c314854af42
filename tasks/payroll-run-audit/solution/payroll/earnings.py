"""Earnings lines (policy §4)."""
from decimal import Decimal

from .hours import employee_hours
from .money import D, ZERO, cents
from .periods import employed_range


def working_days(period, first, last):
    return sum(1 for d in period.days() if first <= d <= last and period.is_working_day(d))


def salary_line(emp, period):
    per_period = D(emp["rate"]) / period.per_year
    first, last = employed_range(emp, period)
    if (first, last) != (period.start, period.end):
        employed = working_days(period, first, last)
        total = working_days(period, period.start, period.end)
        per_period = per_period * employed / total
    return cents(per_period)


def retro_line(emp, period):
    mult = D(period.company["overtime"]["multiplier"])
    amount, hours = ZERO, ZERO
    for r in period.retro:
        if r["employee_id"] != emp["employee_id"]:
            continue
        reg, ot = D(r["regular_hours"]), D(r["overtime_hours"])
        amount += (D(r["new_rate"]) - D(r["old_rate"])) * (reg + ot * mult)
        hours += reg + ot
    return hours, cents(amount)


def earnings(emp, period):
    """(lines [(code, hours, amount)], hours dict)."""
    lines = []
    hours = {"regular": ZERO, "overtime": ZERO, "night": ZERO}
    if emp["pay_type"] == "salaried":
        lines.append(("SAL", ZERO, salary_line(emp, period)))
    else:
        rate = D(emp["rate"])
        mult = D(period.company["overtime"]["multiplier"])
        premium = D(period.company["night"]["premium"])
        hours = employee_hours(emp, period)
        lines.append(("REG", hours["regular"], cents(hours["regular"] * rate)))
        lines.append(("OT", hours["overtime"], cents(hours["overtime"] * rate * mult)))
        lines.append(("NIGHT", hours["night"], cents(hours["night"] * premium)))
        rh, ra = retro_line(emp, period)
        lines.append(("RETRO", rh, ra))
    return [l for l in lines if l[2] != 0], hours
