"""The rate table: EUR per unit of a currency by date, with the last earlier date for gaps."""
import bisect
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def money(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


class Rates:
    def __init__(self, rows):
        table = {}
        for day, cur, value in rows:
            table.setdefault(cur, []).append((day, value))
        self.days, self.values = {}, {}
        for cur, pairs in table.items():
            pairs.sort()
            self.days[cur] = [p[0] for p in pairs]
            self.values[cur] = [p[1] for p in pairs]

    def rate(self, cur, day):
        if cur == "EUR":
            return Decimal(1)
        days = self.days[cur]
        i = bisect.bisect_left(days, day)
        if i == len(days):
            i -= 1
        return self.values[cur][i]

    def conv(self, x, a, b, day):
        if a == b:
            return x
        return money(x * self.rate(a, day) / self.rate(b, day))
