"""The grader's own amortisation: exact integer cents and rationals, no Decimal contexts.

Independent of the solution's method in the step that matters most, the instalment: instead of the
closed-form annuity formula evaluated with (1+r)^n in 50-digit decimals, the payment is solved
from the payoff condition. Paying A a month for n months without rounding leaves a balance that is
linear in A, so two exact simulations (A = 0 and A = 1) give the line, and A* is where it meets
the balloon; the instalment is A* rounded half-up to the cent. The month-by-month rules are the
ones SERVICING.md states; the results are checked against the invariants in `check`.
"""
import calendar
from datetime import date
from fractions import Fraction

BPS = 120000  # a rate of x hundredths of a percent per annum is x / 120000 per month


def cents(money):
    """A money amount with two decimals (Decimal or str) as an integer number of cents."""
    whole = Fraction(str(money)) * 100
    assert whole.denominator == 1, "money with more than two decimals: %s" % money
    return int(whole)


def hundredths(rate):
    """A rate in percent with two decimals as an integer number of hundredths of a percent."""
    x = Fraction(str(rate)) * 100
    assert x.denominator == 1, "rate with more than two decimals: %s" % rate
    return int(x)


def half_up(x):
    """Round a non-negative rational to the nearest integer, halves up."""
    return (2 * x.numerator + x.denominator) // (2 * x.denominator)


def left_after(balance, x, n, pay):
    """Exact balance after n months of paying `pay` (no rounding), rate x hundredths of a percent."""
    growth = 1 + Fraction(x, BPS)
    b = Fraction(balance)
    for _ in range(n):
        b = b * growth - pay
    return b


def instalment(balance, x, n, balloon):
    """Cents paid each month so that n exact months leave exactly the balloon, rounded half-up."""
    unpaid = left_after(balance, x, n, 0)
    per_unit = unpaid - left_after(balance, x, n, 1)  # how much one cent a month pays off over n months
    return half_up((unpaid - balloon) / per_unit)


def due_dates(first, count):
    """The due dates of instalments 1..count: same day each month, or that month's last day."""
    out, year, month = [], first.year, first.month
    for _ in range(count):
        out.append(date(year, month, min(first.day, calendar.monthrange(year, month)[1])))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def rows(t):
    """t as gen.terms makes it. Returns the schedule as a list of rows with money in cents."""
    n, io, balloon = t["n"], t["io"], cents(t["balloon"])
    changes = {k: hundredths(r) for k, r in t["changes"].items()}
    extras = {k: cents(v) for k, v in t["extras"].items()}
    balance, x, pay, out = cents(t["principal"]), hundredths(t["rate"]), None, []
    for k, when in enumerate(due_dates(t["first"], n), 1):
        x = changes.get(k, x)
        # A payment is fixed at the first amortising instalment and again at every rate change.
        if k > io and (pay is None or k in changes):
            pay = instalment(balance, x, n - k + 1, balloon)
        interest = (2 * balance * x + BPS) // (2 * BPS)  # balance * x / BPS, half-up
        principal = 0 if k <= io else pay - interest
        final = k == n or balance - principal <= balloon
        if final:
            principal = balance
        extra = 0 if final else min(extras.get(k, 0), balance - principal)
        balance -= principal + extra
        out.append(dict(k=k, date=when.isoformat(), payment=interest + principal, interest=interest,
                        principal=principal, extra=extra, balance=balance))
        if final or balance == 0:
            break  # an extra payment that clears the balance ends the schedule
    return out


def check(t, sched):
    """Invariants every correct schedule meets; a failure is a bug of the grader's."""
    start = cents(t["principal"])
    assert sum(r["principal"] + r["extra"] for r in sched) == start, "principal not repaid exactly"
    assert sched[-1]["balance"] == 0 and all(r["balance"] > 0 for r in sched[:-1]), "balance not closed at the end"
    before = start
    for r in sched:
        assert r["payment"] == r["interest"] + r["principal"] and r["balance"] == before - r["principal"] - r["extra"]
        assert r["balance"] <= before and r["extra"] >= 0
        before = r["balance"]
    assert len(sched) <= t["n"] and all(r["principal"] == 0 for r in sched[:t["io"]] if r["k"] < len(sched))
