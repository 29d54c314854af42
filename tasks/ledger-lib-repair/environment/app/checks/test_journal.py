from datetime import date
from decimal import Decimal

from ledgerkit.journal import JournalError, parse

SAMPLE = """; opening entries
2026-01-05 * Office chairs
    expense:office        1,250.00 EUR
    asset:bank-eur       -1,250.00 EUR

2026-01-07 Hosting
\texpense:hosting-chf\t120 CHF
\tasset:cash-chf\t-120 CHF
    # paid by card
"""


def test_parse_sample():
    txns = parse(SAMPLE)
    assert [t.line for t in txns] == [2, 6]
    assert txns[0].date == date(2026, 1, 5)
    assert txns[0].description == "Office chairs"
    assert [p.amount for p in txns[0].postings] == [Decimal("1250.00"), Decimal("-1250.00")]
    assert txns[1].postings[0] == ("expense:hosting-chf", Decimal("120"), "CHF")


def test_bad_date_kept():
    txns = parse("2026-02-30 Nope\n  a:b  1.00 EUR\n  a:c  -1.00 EUR\n")
    assert txns[0].date is None and txns[0].date_text == "2026-02-30"


def test_garbage_line():
    try:
        parse("2026-01-01 x\nnot a header\n")
    except JournalError as e:
        assert e.line == 2
        return
    raise AssertionError("no error")
