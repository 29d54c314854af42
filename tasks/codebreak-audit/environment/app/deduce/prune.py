"""Constraint propagation over per-peg colour domains, then exact filtering."""
from .marks import marks
from .space import product_of


def narrow(domains, guess, exact, near):
    """Shrinks the per-peg domains with what a mark proves; returns new domains."""
    doms = [set(d) for d in domains]
    if exact == 0:
        # no peg is in place: each guess colour is wrong at its position
        for i, c in enumerate(guess):
            doms[i].discard(c)
    if exact + near == 0:
        # no colour of the guess is in the secret at all
        for d in doms:
            d.difference_update(guess)
    elif near == 0:
        # nothing is out of place: the colours of the guess that are not exact do not occur
        # elsewhere in the secret
        for i, c in enumerate(guess):
            for j, d in enumerate(doms):
                if j != i:
                    d.discard(c)
    return doms


def candidates(domains, history):
    """Codes allowed by the domains and consistent with every (guess, exact, near) in history."""
    out = []
    for code in product_of(domains):
        if all(marks(code, g) == (e, n) for g, e, n in history):
            out.append(code)
    return out
