"""Clause extraction: each function reads one clause from a piece of agreement text (or None)."""
import re
from decimal import Decimal

from .dates import parse_date
from .money import parse_amount

CUR = r"(EUR|USD|GBP|CHF)"
AMT = r"(\d{1,3}(?:,\d{3})+\.\d{2}|\d+\.\d{2})"
RATE = r"(?:(\d+(?:\.\d+)?)%|(\d+(?:\.\d+)?) per cent|(\d+) basis points) per annum"
ORD = r"(\d+)(?:st|nd|rd|th)"


def rate_of(m, first):
    """A rate in percent from the three groups of RATE starting at group `first`."""
    pct, per_cent, bps = m.group(first), m.group(first + 1), m.group(first + 2)
    if bps is not None:
        return Decimal(bps) / 100
    return Decimal(pct if pct is not None else per_cent)


def principal(text):
    """(currency, amount) or None."""
    m = re.search(r"(?:principal amount of|the sum of) " + CUR + " " + AMT, text)
    if m:
        return m.group(1), parse_amount(m.group(2))
    m = re.search(r"Loan amount: " + AMT + " " + CUR, text)
    if m:
        return m.group(2), parse_amount(m.group(1))
    return None


def fixed_rate(text):
    m = re.search(r"at a fixed rate of " + RATE, text)
    return rate_of(m, 1) if m else None


def term(text):
    """Number of monthly instalments, or None."""
    m = re.search(r"repaid in (\d+) monthly instalments", text) or re.search(r"over a term of (\d+) months", text)
    if m:
        return int(m.group(1))
    m = re.search(r"over a term of (\d+) years", text)
    return int(m.group(1)) if m else None


def first_due(text):
    m = re.search(r"The first instalment is due on ([^;]+);", text)
    return parse_date(m.group(1)) if m else None


def rate_changes(text):
    """{k: rate} for every 'With effect from the Kth instalment, the rate shall be R.'"""
    pat = r"With effect from the " + ORD + r" instalment, the rate shall be " + RATE
    return {int(m.group(1)): rate_of(m, 2) for m in re.finditer(pat, text)}


def interest_only(text):
    m = re.search(r"The first (\d+) instalments comprise interest only", text)
    return int(m.group(1)) if m else 0


def balloon(text):
    m = re.search(r"A balloon payment of " + CUR + " " + AMT + " is due with the final instalment", text)
    return parse_amount(m.group(2)) if m else None


def extra_payments(text):
    """{k: total} of the additional principal payments (several with one instalment add up)."""
    out = {}
    pat = r"an additional principal payment of " + CUR + " " + AMT + r" together with the " + ORD + " instalment"
    for m in re.finditer(pat, text):
        k = int(m.group(3))
        out[k] = out.get(k, Decimal("0.00")) + parse_amount(m.group(2))
    return out
