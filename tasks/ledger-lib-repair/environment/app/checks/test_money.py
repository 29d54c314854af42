from decimal import Decimal

from ledgerkit.money import MoneyError, fmt, parse_amount, round_money, to_base


def test_parse_plain():
    assert parse_amount("12") == Decimal("12")
    assert parse_amount("-0.50") == Decimal("-0.50")


def test_parse_grouped():
    assert parse_amount("1,250.00") == Decimal("1250.00")
    assert parse_amount("-12,345,678.90") == Decimal("-12345678.90")


def test_parse_rejects():
    for bad in ("1,25.00", "12,3456", "abc", "1.2.3", ""):
        try:
            parse_amount(bad)
        except MoneyError:
            continue
        raise AssertionError("accepted %r" % bad)


def test_round_half_even():
    assert round_money(Decimal("0.125")) == Decimal("0.12")
    assert round_money(Decimal("0.135")) == Decimal("0.14")
    assert round_money(Decimal("-2.665")) == Decimal("-2.66")
    assert round_money(Decimal("2.6651")) == Decimal("2.67")


def test_to_base():
    assert to_base(Decimal("10.50"), Decimal("0.9250")) == Decimal("9.71")  # 9.7125
    assert to_base(Decimal("10.10"), Decimal("0.925")) == Decimal("9.34")  # 9.3425


def test_fmt():
    assert fmt(Decimal("-0.001")) == "0.00"
    assert fmt(Decimal("1250")) == "1250.00"
    assert fmt(Decimal("-3.5")) == "-3.50"
