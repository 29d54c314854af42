"""Cumulative balances at the end of every period.

One row per period and account: every period from the month of the earliest accepted transaction
through the month of the latest (months without transactions included), and every account with at
least one posting dated on or before the period's end. ``balance`` is the sum of the account's
amounts in its own currency, ``base_balance`` the sum of their base values.
"""
import csv

from .money import ZERO, fmt
from .periods import span

HEADER = ["period", "account", "currency", "balance", "base_balance"]


def period_balances(book, entries):
    """[(period, account, currency, balance, base_balance)], sorted by period then account."""
    dated = sorted(entries, key=lambda e: e.date)
    if not dated:
        return []
    totals, out, i = {}, [], 0
    for period in span(dated[0].date, dated[-1].date):
        while i < len(dated) and dated[i].date <= period.end:
            for line in dated[i].lines:
                native, base = totals.get(line.account, (ZERO, ZERO))
                totals[line.account] = (native + line.amount, base + line.base)
            i += 1
        for account in sorted(totals):
            native, base = totals[account]
            out.append((period, account, book.accounts[account].currency, native, base))
    return out


def write_csv(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def write_report(path, book, entries):
    rows = [(p.key, a, c, fmt(n), fmt(b)) for p, a, c, n, b in period_balances(book, entries)]
    write_csv(path, HEADER, rows)
    return len(rows)
