"""The month-by-month schedule (SERVICING.md §4)."""
from .annuity import monthly, payment
from .dates import due_date
from .money import ZERO, cents

COLUMNS = ("k", "date", "payment", "interest", "principal", "extra", "balance")


def build(t):
    """Rows (dicts with COLUMNS) of the contract terms t."""
    balance, rate, n, balloon, io = t["principal"], t["rate"], t["n"], t["balloon"], t["io"]
    instalment = None
    rows = []
    for k in range(1, n + 1):
        changed = k in t["changes"]
        if changed:
            rate = t["changes"][k]
        if k > io and (instalment is None or changed):
            # the first amortising instalment, or a rate change: re-amortise over what is left
            instalment = payment(balance, rate, n - k + 1, balloon)
        interest = cents(balance * monthly(rate))
        principal = ZERO if k <= io else instalment - interest
        final = k == n or balance - principal <= balloon
        if final:
            principal = balance
        extra = ZERO if final else min(t["extras"].get(k, ZERO), balance - principal)
        balance = balance - principal - extra
        rows.append(dict(k=k, date=due_date(t["first"], k).isoformat(), payment=interest + principal,
                         interest=interest, principal=principal, extra=extra, balance=balance))
        if final or balance == 0:
            # an extra payment that clears the balance ends the schedule
            break
    return rows
