"""A book folder and the validation of its transactions.

A book folder holds:

    book.json     {"base_currency": "EUR", ...}
    accounts.csv  account,type,currency   (type: asset, liability, equity, income, expense)
    rates.csv     date,currency,rate      (see rates.py)
    journal.txt   the journal (see journal.py)

Every posting is valued in the base currency at the rate in effect on the transaction's date,
rounded to cents. Whenever the base values of a transaction do not sum to zero, the difference is
posted to ``equity:conversion`` (an equity account in the base currency that every book has).

A transaction is rejected, for the first reason that applies, in this order:

    bad_date           the header's date is not a calendar day
    unknown_account    a posting names an account not in accounts.csv
    currency_mismatch  a posting's currency is not its account's currency
    no_rate            a posting's currency has no rate in effect on the date
    unbalanced         fewer than two postings; or one currency whose amounts do not sum to zero;
                       or several currencies whose base values are off by more than 1.00
    duplicate          same date, description and postings as an earlier accepted transaction

Rejected transactions are left out of every balance.
"""
import csv
import json
import os
from collections import namedtuple
from decimal import Decimal

from . import journal
from .money import ZERO, to_base
from .rates import NoRate, RateTable

CONVERSION = "equity:conversion"
TOLERANCE = Decimal("1.00")
TYPES = ("asset", "liability", "equity", "income", "expense")
REASONS = ("bad_date", "unknown_account", "currency_mismatch", "no_rate", "unbalanced", "duplicate")

Account = namedtuple("Account", "name type currency")
Line = namedtuple("Line", "account amount currency base")


class BookError(ValueError):
    """A book folder that cannot be loaded."""


class Entry:
    """An accepted transaction with each posting's base value (and the conversion line, if any)."""

    __slots__ = ("transaction", "lines")

    def __init__(self, transaction, lines):
        self.transaction = transaction
        self.lines = lines

    @property
    def date(self):
        return self.transaction.date


class Book:
    def __init__(self, base, accounts, rates, transactions):
        self.base = base
        self.accounts = dict(accounts)
        self.accounts.setdefault(CONVERSION, Account(CONVERSION, "equity", base))
        self.rates = rates
        self.transactions = transactions

    @classmethod
    def load(cls, folder):
        try:
            with open(os.path.join(folder, "book.json"), encoding="utf-8") as f:
                meta = json.load(f)
            base = str(meta["base_currency"]).strip().upper()
            accounts = {}
            with open(os.path.join(folder, "accounts.csv"), newline="", encoding="utf-8") as f:
                for row in csv.DictReader(f):
                    name = row["account"].strip()
                    kind = row["type"].strip().lower()
                    if kind not in TYPES:
                        raise BookError("account %s: unknown type %r" % (name, kind))
                    accounts[name] = Account(name, kind, row["currency"].strip().upper())
            rates = RateTable.load(os.path.join(folder, "rates.csv"), base)
            transactions = journal.load(os.path.join(folder, "journal.txt"))
        except (OSError, KeyError, ValueError) as e:
            raise BookError(str(e))
        return cls(base, accounts, rates, transactions)

    def _values(self, txn):
        """Base values of the postings, or the reason the transaction is rejected (duplicates aside)."""
        if txn.date is None:
            return "bad_date"
        for p in txn.postings:
            if p.account not in self.accounts:
                return "unknown_account"
        for p in txn.postings:
            if self.accounts[p.account].currency != p.currency:
                return "currency_mismatch"
        values = []
        for p in txn.postings:
            try:
                values.append(to_base(p.amount, self.rates.rate(p.currency, txn.date)))
            except NoRate:
                return "no_rate"
        if len(txn.postings) < 2:
            return "unbalanced"
        if len(txn.currencies()) == 1:
            if sum((p.amount for p in txn.postings), ZERO) != 0:
                return "unbalanced"
        elif abs(sum(values, ZERO)) > TOLERANCE:
            return "unbalanced"
        return values

    def post(self):
        """(entries, rejected): accepted entries in journal order, and (transaction, reason) pairs."""
        entries, rejected, seen = [], [], set()
        for txn in self.transactions:
            values = self._values(txn)
            if isinstance(values, str):
                rejected.append((txn, values))
                continue
            sig = txn.signature()
            if sig in seen:
                rejected.append((txn, "duplicate"))
                continue
            seen.add(sig)
            lines = [Line(p.account, p.amount, p.currency, v) for p, v in zip(txn.postings, values)]
            residual = sum(values, ZERO)
            if residual != 0:
                lines.append(Line(CONVERSION, -residual, self.base, -residual))
            entries.append(Entry(txn, lines))
        return entries, rejected
