"""Exact two-sided McNemar test against the dataset's baseline model."""
from math import comb


def discordant(base_pairs, model_pairs):
    b = sum(1 for (g, p), (_, q) in zip(base_pairs, model_pairs) if p == g and q != g)
    c = sum(1 for (g, p), (_, q) in zip(base_pairs, model_pairs) if p != g and q == g)
    return b, c


def mcnemar_exact(b, c):
    total = b + c
    if total == 0:
        return 1.0
    tail = sum(comb(total, k) for k in range(min(b, c) + 1))
    return 2.0 * tail / 2.0 ** total
