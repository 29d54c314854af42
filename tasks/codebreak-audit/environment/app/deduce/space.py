"""The set of codes a secret can be."""
import itertools


def all_codes(pegs, colors, repeat=True):
    # TODO: repeat=no games (the referee says repeat=no in the GAME line)
    return ["".join(p) for p in itertools.product(colors, repeat=pegs)]


def product_of(domains):
    """Codes whose i-th peg is taken from domains[i]."""
    return ["".join(p) for p in itertools.product(*[sorted(d) for d in domains])]
