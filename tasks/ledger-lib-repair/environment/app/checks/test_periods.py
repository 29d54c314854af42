from datetime import date

from ledgerkit.periods import Period, period_of, span


def test_span_over_year_end():
    keys = [p.key for p in span(date(2026, 11, 15), date(2027, 2, 3))]
    assert keys == ["2026-11", "2026-12", "2027-01", "2027-02"]


def test_contains():
    p = period_of(date(2026, 1, 17))
    assert p == Period(2026, 1)
    assert p.contains(date(2026, 1, 1)) and p.contains(date(2026, 1, 31))
    assert not p.contains(date(2025, 12, 31))
