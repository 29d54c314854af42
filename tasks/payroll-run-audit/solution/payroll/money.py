"""Decimal helpers: parsing and half-up rounding to the cent."""
from decimal import Decimal, ROUND_HALF_UP

CENT = Decimal("0.01")
ZERO = Decimal("0")


def D(text):
    text = ("%s" % text).strip() if text is not None else ""
    return Decimal(text) if text else ZERO


def cents(x):
    """Rounded half-up to the cent."""
    return Decimal(x).quantize(CENT, rounding=ROUND_HALF_UP)


def fmt(x):
    return "%s" % cents(x)
