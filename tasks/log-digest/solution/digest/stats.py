"""Nearest-rank percentiles and rounded rates, exact (Decimal)."""
from decimal import ROUND_HALF_UP, Decimal

MS = Decimal("0.001")
RATE = Decimal("0.0001")


def nearest_rank(values, p):
    """Element ceil(p/100 * n) (1-based) of the sorted values; p an integer percent."""
    if not values:
        return None
    s = sorted(values)
    n = len(s)
    rank = -(-p * n // 100)
    return s[max(rank, 1) - 1]


def ms(value):
    return None if value is None else float(value.quantize(MS, rounding=ROUND_HALF_UP))


def rate(part, whole):
    if whole == 0:
        return 0.0
    return float((Decimal(part) / Decimal(whole)).quantize(RATE, rounding=ROUND_HALF_UP))
