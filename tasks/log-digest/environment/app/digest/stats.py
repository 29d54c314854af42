"""Nearest-rank percentiles and rounded rates, exact (Decimal)."""
from decimal import ROUND_HALF_UP, Decimal

MS = Decimal("0.001")


def nearest_rank(values, p):
    """Element ceil(p/100 * n) (1-based) of the sorted values; p an integer percent."""
    if not values:
        return None
    s = sorted(values)
    n = len(s)
    return s[min(p * n // 100, n - 1)]


def ms(value):
    return None if value is None else float(value.quantize(MS, rounding=ROUND_HALF_UP))


def rate(part, whole):
    if whole == 0:
        return 0.0
    return round(part / whole, 4)
