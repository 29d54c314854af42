"""Agreement text -> terms: the body, then SCHEDULE 2 - AMENDMENTS restating clauses over it."""
from . import clauses
from .money import ZERO

MARKER = "SCHEDULE 2 - AMENDMENTS"


def split(text):
    """(body, amendments); the amendments part is empty when there is no schedule 2."""
    body, found, rest = text.partition(MARKER)
    return body, (rest if found else "")


def terms(text):
    """The contract's terms as a dict; a rate or term restated in the amendments wins."""
    body, amend = split(text)
    cur_amount = clauses.principal(body)
    if cur_amount is None:
        raise ValueError("no principal clause")
    rate = clauses.fixed_rate(amend)
    if rate is None:
        rate = clauses.fixed_rate(body)
    n = clauses.term(amend)
    if n is None:
        n = clauses.term(body)
    first = clauses.first_due(body)
    if rate is None or n is None or first is None:
        raise ValueError("rate, term or first due date missing")
    return dict(cur=cur_amount[0], principal=cur_amount[1], rate=rate, n=n, first=first,
                io=clauses.interest_only(text), balloon=clauses.balloon(text) or ZERO,
                changes=clauses.rate_changes(text), extras=clauses.extra_payments(text))
