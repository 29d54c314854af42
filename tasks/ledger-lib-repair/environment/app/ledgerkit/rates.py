"""The exchange-rate table.

``rates.csv`` has the columns ``date,currency,rate``: ``rate`` base-currency units buy one unit of
``currency``. A row takes effect on its date (inclusive) and holds until the next row of the same
currency. The base currency is always 1. Rows may come in any order.
"""
import bisect
import csv
from datetime import date
from decimal import Decimal

from .money import MoneyError, parse_rate


class NoRate(LookupError):
    """No rate of a currency is in effect on a day."""


class RateTable:
    def __init__(self, base):
        self.base = base
        self._days = {}
        self._rates = {}

    def add(self, day, currency, rate):
        days = self._days.setdefault(currency, [])
        rates = self._rates.setdefault(currency, [])
        i = bisect.bisect_left(days, day)
        if i < len(days) and days[i] == day:
            rates[i] = rate  # a later row for the same day wins
            return
        days.insert(i, day)
        rates.insert(i, rate)

    def currencies(self):
        return sorted(set(self._days) | {self.base})

    def rate(self, currency, day):
        """The rate in effect on ``day``: the latest row dated on or before it."""
        if currency == self.base:
            return Decimal(1)
        days = self._days.get(currency)
        if not days:
            raise NoRate("no rates for %s" % currency)
        i = bisect.bisect_left(days, day)
        if i == 0:
            raise NoRate("no %s rate on or before %s" % (currency, day.isoformat()))
        return self._rates[currency][i - 1]

    @classmethod
    def load(cls, path, base):
        table = cls(base)
        with open(path, newline="", encoding="utf-8") as f:
            for n, row in enumerate(csv.DictReader(f), start=2):
                try:
                    day = date.fromisoformat(row["date"].strip())
                    table.add(day, row["currency"].strip().upper(), parse_rate(row["rate"]))
                except (KeyError, ValueError, MoneyError) as e:
                    raise ValueError("%s:%d: %s" % (path, n, e))
        return table
