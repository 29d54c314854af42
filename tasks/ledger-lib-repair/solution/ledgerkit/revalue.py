"""Period-end revaluation of foreign-currency balances.

For every period of the report and every asset or liability account whose currency is not the base
currency and that has a row in that period: the closing rate is the rate in effect on the period's
last day; the revalued base amount is the native balance at that rate, rounded to cents; the
unrealised gain (or loss, negative) is the revalued amount minus the account's base balance.
Nothing is posted back: the revaluation is a report.
"""
from .money import fmt, fmt_rate, to_base
from .rates import NoRate
from .report import period_balances, write_csv

HEADER = ["period", "account", "currency", "balance", "rate", "revalued_base", "base_balance", "unrealised"]


def revaluation(book, entries):
    out = []
    for period, account, currency, native, base in period_balances(book, entries):
        if currency == book.base or book.accounts[account].type not in ("asset", "liability"):
            continue
        try:
            rate = book.rates.rate(currency, period.last_day)
        except NoRate:
            continue
        revalued = to_base(native, rate)
        out.append((period, account, currency, native, rate, revalued, base, revalued - base))
    return out


def write_revaluation(path, book, entries):
    rows = [(p.key, a, c, fmt(n), fmt_rate(r), fmt(v), fmt(b), fmt(u))
            for p, a, c, n, r, v, b, u in revaluation(book, entries)]
    write_csv(path, HEADER, rows)
    return len(rows)
