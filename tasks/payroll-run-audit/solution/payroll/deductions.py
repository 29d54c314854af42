"""Pension, health, withholding and net pay (policy §5-§7)."""
from .money import D, ZERO, cents


def ytd_of(emp, period):
    """The ytd.csv row of the employee, with year-to-date figures zeroed for an earlier year."""
    row = period.ytd.get(emp["employee_id"], {})
    same_year = row.get("year") and int(row["year"]) == period.pay_date.year
    out = {k: (D(row.get(k)) if same_year else ZERO) for k in ("gross", "pension", "withholding")}
    out["carry_forward"] = D(row.get("carry_forward"))
    return out


def pension(emp, period, gross, ytd):
    cap = D(period.company["pension_annual_cap"])
    wanted = cents(gross * D(emp["pension_pct"]) / 100)
    room = max(ZERO, cap - ytd["pension"])
    return max(ZERO, min(wanted, room))


def annual_tax(annual, brackets):
    tax = ZERO
    for i, (threshold, rate) in enumerate(brackets):
        lo = D(threshold)
        hi = D(brackets[i + 1][0]) if i + 1 < len(brackets) else None
        if annual <= lo:
            break
        top = annual if hi is None else min(annual, hi)
        tax += (top - lo) * D(rate)
    return tax


def withholding(period, taxable, retro):
    cfg = period.company["tax"]
    annual = max(ZERO, (taxable - retro) * period.per_year)
    period_tax = cents(annual_tax(annual, cfg["brackets"]) / period.per_year)
    retro_tax = cents(retro * D(cfg["supplemental_rate"]))
    return period_tax + retro_tax


def net_pay(taxable, tax, post_tax, carry_in):
    net = taxable - tax - post_tax - carry_in
    if net < 0:
        return ZERO, -net
    return net, ZERO
