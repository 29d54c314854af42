"""Calendar-month accounting periods.

A period is named ``YYYY-MM`` and runs from the first day of the month to its last day, both
inclusive. Balances "at the end of a period" include every transaction dated on its last day.
"""
from datetime import date


class Period:
    __slots__ = ("year", "month")

    def __init__(self, year, month):
        self.year, self.month = year, month

    @property
    def key(self):
        return "%04d-%02d" % (self.year, self.month)

    @property
    def first_day(self):
        return date(self.year, self.month, 1)

    @property
    def next(self):
        return Period(self.year + 1, 1) if self.month == 12 else Period(self.year, self.month + 1)

    @property
    def end(self):
        """Where the period ends (the start of the following month)."""
        return self.next.first_day

    def contains(self, day):
        return self.first_day <= day <= self.end

    def __eq__(self, other):
        return isinstance(other, Period) and (self.year, self.month) == (other.year, other.month)

    def __lt__(self, other):
        return (self.year, self.month) < (other.year, other.month)

    def __hash__(self):
        return hash((self.year, self.month))

    def __repr__(self):
        return "Period(%s)" % self.key


def period_of(day):
    return Period(day.year, day.month)


def span(first, last):
    """Every period from the one holding ``first`` through the one holding ``last``."""
    p, end, out = period_of(first), period_of(last), []
    while not end < p:
        out.append(p)
        p = p.next
    return out
