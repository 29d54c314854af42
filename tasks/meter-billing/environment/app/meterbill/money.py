"""Money and energy quantities: Decimal money rounded to cents, energy held as whole Wh."""
from decimal import Decimal, ROUND_HALF_UP

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def dec(text):
    """A Decimal from a JSON/CSV value ("0.2480", 0.25 or 3)."""
    return Decimal(str(text).strip())


def cents(amount):
    """Money to the cent (BILLING.md section 5)."""
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def kwh(wh):
    """Whole Wh as an exact Decimal number of kWh."""
    return Decimal(wh) / 1000


def wh_of(text):
    """A register value in kWh (up to three decimals) as whole Wh."""
    value = dec(text) * 1000
    if value != value.to_integral_value():
        raise ValueError("register value with more than three decimals: %r" % text)
    return int(value)


def fmt_kwh(wh):
    return "%d.%03d" % divmod(wh, 1000)


def fmt_money(amount):
    amount = cents(amount)
    if amount == 0:
        amount = ZERO
    return "%.2f" % amount
