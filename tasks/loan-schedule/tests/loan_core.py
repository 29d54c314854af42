"""Contract terms → instalment schedule (Decimal, half-up to cents)."""
import calendar
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, getcontext

getcontext().prec = 50
CENT = Decimal("0.01")


def q(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def annuity(balance, rate, n, balloon):
    r = rate / Decimal(1200)
    if r == 0:
        return q((balance - balloon) / n)
    f = (1 + r) ** n
    return q((balance - balloon / f) * r * f / (f - 1))


def due(first, k):
    m = first.month - 1 + k
    y, m = first.year + m // 12, m % 12 + 1
    return date(y, m, min(first.day, calendar.monthrange(y, m)[1]))


def schedule(t):
    """t: principal, rate, n, first (date), io (interest-only count), balloon, changes {k: rate}, extras {k: amount}."""
    bal, rate, n, balloon = t["principal"], t["rate"], t["n"], t["balloon"]
    io = t.get("io", 0)
    pay = None if io else annuity(bal, rate, n, balloon)
    rows = []
    for k in range(1, n + 1):
        if k in t["changes"]:
            rate = t["changes"][k]
            if k > io:
                pay = annuity(bal, rate, n - k + 1, balloon)
        if k == io + 1 and io:
            pay = annuity(bal, rate, n - io, balloon)
        interest = q(bal * rate / Decimal(1200))
        if k <= io:
            principal = Decimal("0.00")
        else:
            principal = pay - interest
        last = k == n or bal - principal <= balloon
        if last:
            principal = bal
        extra = t["extras"].get(k, Decimal("0.00")) if not last else Decimal("0.00")
        extra = min(extra, bal - principal)
        bal = bal - principal - extra
        rows.append(dict(k=k, date=due(t["first"], k - 1).isoformat(), payment=interest + principal,
                         interest=interest, principal=principal, extra=extra, balance=bal))
        if last:
            break
    return rows
