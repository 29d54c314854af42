"""Due dates: the three date styles of the contracts and the monthly due-date rule."""
import calendar
import re
from datetime import date

MONTHS = {m: i + 1 for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july",
                                           "august", "september", "october", "november", "december"])}


def parse_date(text):
    """'31 January 2027', '2027-01-31' or 'January 31, 2027'."""
    s = text.strip()
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", s)
    if m:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = re.fullmatch(r"(\d{1,2}) ([A-Za-z]+) (\d{4})", s)
    if m:
        return date(int(m.group(3)), MONTHS[m.group(2).lower()], int(m.group(1)))
    m = re.fullmatch(r"([A-Za-z]+) (\d{1,2}), (\d{4})", s)
    if m:
        return date(int(m.group(3)), MONTHS[m.group(1).lower()], int(m.group(2)))
    raise ValueError("unknown date style: %r" % text)


def add_months(d, months, day):
    """The date `months` months after d's month, on `day` or the last day of a shorter month."""
    idx = d.month - 1 + months
    y, m = d.year + idx // 12, idx % 12 + 1
    return date(y, m, min(day, calendar.monthrange(y, m)[1]))


def due_date(first, k):
    """Instalment k (1-based) falls one month after instalment k-1."""
    d = first
    for _ in range(k - 1):
        d = add_months(d, 1, d.day)
    return d
