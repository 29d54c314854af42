from datetime import date
from decimal import Decimal

from ledgerkit.rates import NoRate, RateTable


def table():
    t = RateTable("EUR")
    t.add(date(2026, 1, 20), "USD", Decimal("0.95"))
    t.add(date(2026, 1, 10), "USD", Decimal("0.90"))
    return t


def test_between_rows():
    assert table().rate("USD", date(2026, 1, 15)) == Decimal("0.90")
    assert table().rate("USD", date(2026, 2, 1)) == Decimal("0.95")


def test_base_is_one():
    assert table().rate("EUR", date(1999, 1, 1)) == 1


def test_before_first_row():
    try:
        table().rate("USD", date(2026, 1, 9))
    except NoRate:
        return
    raise AssertionError("no NoRate")
