"""The plain-text journal.

A journal is a sequence of transactions. A transaction starts with a header line at column 0::

    2026-01-05 Office chairs

(a date, an optional ``*`` or ``!`` flag, then the description) followed by its posting lines,
each indented by at least one space or tab::

    expense:office        1,250.00 EUR
    asset:bank-eur       -1,250.00 EUR

A posting is an account name (no spaces), at least two spaces or a tab, the amount (optional
minus, optional thousands separators, optional decimals) and a three-letter currency code.
Lines whose first non-blank character is ``;`` or ``#`` are comments; blank lines are ignored.
"""
import re
from collections import namedtuple
from datetime import date

from .money import MoneyError, parse_amount

Posting = namedtuple("Posting", "account amount currency")

_HEADER = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})(?:\s+[*!])?(?:\s+(?P<desc>.*?))?\s*$")
_POSTING = re.compile(r"^[ \t]+(?P<account>\S+)(?:  +|\t)\s*(?P<amount>-?[\d,]+(?:\.\d+)?)\s+(?P<cur>[A-Z]{3})\s*$")


class JournalError(ValueError):
    """A line that is neither a header, a posting, a comment nor blank."""

    def __init__(self, line, message):
        super().__init__("journal line %d: %s" % (line, message))
        self.line = line


class Transaction:
    """One journal transaction. ``date`` is None when the header's date is not a calendar day."""

    __slots__ = ("line", "date_text", "date", "description", "postings")

    def __init__(self, line, date_text, description):
        self.line = line
        self.date_text = date_text
        try:
            self.date = date.fromisoformat(date_text)
        except ValueError:
            self.date = None
        self.description = description
        self.postings = []

    def currencies(self):
        return sorted({p.currency for p in self.postings})

    def signature(self):
        """What makes two transactions the same entry: date, description and postings (any order)."""
        return (self.date_text, self.description,
                tuple(sorted((p.account, p.amount, p.currency) for p in self.postings)))

    def __repr__(self):
        return "Transaction(line=%d, %s %r, %d postings)" % (self.line, self.date_text, self.description,
                                                               len(self.postings))


def parse(text):
    """Parses journal text into transactions, in file order."""
    out, cur = [], None
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        body = line.strip()
        if not body or body[0] in ";#":
            continue
        if line[0] not in " \t":
            m = _HEADER.match(line)
            if not m:
                raise JournalError(n, "expected a transaction header: %r" % line)
            cur = Transaction(n, m.group("date"), m.group("desc") or "")
            out.append(cur)
            continue
        m = _POSTING.match(line)
        if not m:
            raise JournalError(n, "expected a posting: %r" % line)
        if cur is None:
            raise JournalError(n, "posting before the first transaction header")
        try:
            amount = parse_amount(m.group("amount"))
        except MoneyError as e:
            raise JournalError(n, str(e))
        cur.postings.append(Posting(m.group("account"), amount, m.group("cur")))
    return out


def load(path):
    with open(path, encoding="utf-8") as f:
        return parse(f.read())
