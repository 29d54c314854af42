"""Cardinality encodings (SPEC.md, section 3): pairwise at-most-one, Sinz's sequential counter."""


class Pool:
    """Hands out fresh variable numbers after the last one in use."""

    def __init__(self, top):
        self.top = top

    def new(self):
        self.top += 1
        return self.top


def at_least_one(lits):
    return [list(lits)]


def at_most_one(lits):
    lits = list(lits)
    return [[-lits[i], -lits[j]] for i in range(len(lits)) for j in range(i + 1, len(lits))]


def at_most_k(lits, k, pool):
    lits = list(lits)
    n = len(lits)
    if k < 0:
        return [[]]
    if k >= n:
        return []
    if k == 0:
        return [[-x] for x in lits]
    if k == 1:
        return at_most_one(lits)
    # s[i][j]: at least j + 1 of lits[0..i] are true (i < n - 1, j < k)
    s = [[pool.new() for _ in range(k)] for _ in range(n - 1)]
    out = [[-lits[0], s[0][0]]]
    out += [[-s[0][j]] for j in range(1, k)]
    for i in range(1, n - 1):
        out.append([-lits[i], s[i][0]])
        out.append([-s[i - 1][0], s[i][0]])
        for j in range(1, k):
            out.append([-lits[i], -s[i - 1][j - 1], s[i][j]])
            out.append([-s[i - 1][j], s[i][j]])
        out.append([-lits[i], -s[i - 1][k - 1]])
    out.append([-lits[n - 1], -s[n - 2][k - 1]])
    return out


def at_least_k(lits, k, pool):
    lits = list(lits)
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    return at_most_k([-x for x in lits], len(lits) - k, pool)


def exactly_k(lits, k, pool):
    return at_most_k(lits, k, pool) + at_least_k(lits, k, pool)
