"""The annuity instalment (SERVICING.md §3)."""
from decimal import Decimal

from .money import cents


def monthly(rate):
    """Monthly rate r = R / 1200 for R in percent per annum."""
    return Decimal(rate) / Decimal(1200)


def payment(balance, rate, n, balloon):
    """round((P - B/(1+r)^n) * r(1+r)^n / ((1+r)^n - 1)); round((P - B)/n) when r = 0."""
    r = monthly(rate)
    if r == 0:
        return cents((balance - balloon) / n)
    f = (1 + r) ** n
    return cents((balance - balloon) * r * f / (f - 1))
