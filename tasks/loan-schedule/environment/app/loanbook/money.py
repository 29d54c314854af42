"""Exact decimal money: amounts in the contracts, cents rounding half-up, output formatting."""
from decimal import ROUND_DOWN, Decimal, InvalidOperation, getcontext

getcontext().prec = 50
CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def cents(x):
    """x to the cent, as the bank's ledger keeps it (SERVICING.md §3)."""
    return Decimal(x).quantize(CENT, rounding=ROUND_DOWN)


def parse_amount(text):
    """'441,320.00' or '441320.00' -> Decimal('441320.00')."""
    return Decimal(text.replace(",", "").strip()).quantize(CENT)


def parse_loose(text):
    """A money value from a statement file, or None when it is not a number."""
    try:
        return Decimal((text or "").replace(",", "").strip())
    except InvalidOperation:
        return None


def fmt(x):
    """Money with exactly two decimals."""
    return str(cents(x))
