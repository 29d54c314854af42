"""Money amounts: exact decimals with two places and banker's rounding.

Every amount the ledger stores is a ``Decimal``. Amounts in a journal may carry thousands
separators (``1,250.00``); they are never floats.
"""
import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")
ZERO = Decimal("0.00")

# An optional minus sign, digits (either plain or grouped by threes with commas), optional decimals.
_AMOUNT = re.compile(r"^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")


class MoneyError(ValueError):
    """An amount that cannot be read."""


def parse_amount(text):
    """Reads a journal amount such as ``-1,250.50`` or ``12``."""
    t = text.strip()
    if not _AMOUNT.match(t):
        raise MoneyError("not an amount: %r" % text)
    try:
        return Decimal(t.replace(",", ""))
    except InvalidOperation:
        raise MoneyError("not an amount: %r" % text)


def parse_rate(text):
    """Reads an exchange rate (a positive decimal)."""
    try:
        r = Decimal(text.strip())
    except InvalidOperation:
        raise MoneyError("not a rate: %r" % text)
    if not r.is_finite() or r <= 0:
        raise MoneyError("not a positive rate: %r" % text)
    return r


def round_money(x):
    """Rounds to cents, half to even (0.125 -> 0.12, 0.135 -> 0.14)."""
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def to_base(amount, rate):
    """The base-currency value of an amount at a rate, rounded to cents."""
    return round_money(amount * rate)


def fmt(x):
    """Two decimals, a leading minus for negatives, no grouping; zero is always ``0.00``."""
    q = round_money(x)
    if q == 0:
        q = ZERO
    return "%s" % q


def fmt_rate(r):
    """A rate as plain decimal text without trailing zeros (``0.9250`` -> ``0.925``)."""
    t = format(r.normalize(), "f")
    return t if "." not in t else t.rstrip("0").rstrip(".")
