"""The grader's own reference, written from FORMAT.md alone.

Puzzles are plain dicts built by gen.py (never parsed from the .pz text):
  n, giv (n*n list, 0 = empty), reg (n*n list of region ids), cages [(total, [idx...])],
  less [(i, j)] meaning value[i] < value[j], thermo [[idx...]] bulb first.
Cells are flat indices i = row * n + col.

`enumerate_solutions` is a plain depth-first fill of the cells in reading order with bit masks,
no candidate propagation: the first grid it meets is the lexicographically least solution.
"""

BIG = 10 ** 9


def _tables(pz):
    n = pz["n"]
    cage_id = [-1] * (n * n)
    for k, (_, cells) in enumerate(pz["cages"]):
        for i in cells:
            cage_id[i] = k
    signs = [[] for _ in range(n * n)]
    for i, j in pz["less"]:
        signs[i].append((i, j))
        signs[j].append((i, j))
    thermo_at = [[] for _ in range(n * n)]
    for t in pz["thermo"]:
        for pos, i in enumerate(t):
            thermo_at[i].append((t, pos))
    return cage_id, signs, thermo_at


def enumerate_solutions(pz, limit=2):
    n = pz["n"]
    N = n * n
    giv, reg = pz["giv"], pz["reg"]
    cage_id, signs, thermo_at = _tables(pz)
    cages = pz["cages"]
    val = [0] * N
    rowm = [0] * n
    colm = [0] * n
    regm = [0] * n
    cmask = [0] * len(cages)
    csum = [0] * len(cages)
    cleft = [len(c[1]) for c in cages]
    digits_desc = list(range(n, 0, -1))
    out = []

    def cage_fits(k, total, mask, left):
        free = [d for d in range(1, n + 1) if not mask >> d & 1]
        if left > len(free):
            return False
        need = total
        return sum(free[:left]) <= need <= sum(free[len(free) - left:]) if left else need == 0

    def allowed(i, d):
        r, c = divmod(i, n)
        bit = 1 << d
        if rowm[r] & bit or colm[c] & bit or regm[reg[i]] & bit:
            return False
        k = cage_id[i]
        if k >= 0:
            if cmask[k] & bit:
                return False
            if not cage_fits(k, cages[k][0] - csum[k] - d, cmask[k] | bit, cleft[k] - 1):
                return False
        for a, b in signs[i]:
            other = b if a == i else a
            w = val[other]
            if w:
                if (a == i and not d < w) or (b == i and not w < d):
                    return False
        for t, pos in thermo_at[i]:
            L = len(t)
            if d < pos + 1 or d > n - (L - 1 - pos):
                return False
            if pos > 0 and val[t[pos - 1]] and not val[t[pos - 1]] < d:
                return False
            if pos < L - 1 and val[t[pos + 1]] and not d < val[t[pos + 1]]:
                return False
        return True

    def put(i, d, sign):
        r, c = divmod(i, n)
        bit = 1 << d
        rowm[r] ^= bit
        colm[c] ^= bit
        regm[reg[i]] ^= bit
        k = cage_id[i]
        if k >= 0:
            cmask[k] ^= bit
            csum[k] += sign * d
            cleft[k] -= sign
        val[i] = d if sign > 0 else 0

    # givens first; a given that breaks a rule makes the puzzle unsolvable
    for i in range(N):
        if giv[i]:
            if not allowed(i, giv[i]):
                return out
            put(i, giv[i], 1)
    order = [i for i in range(N) if not giv[i]]

    full = (1 << (n + 1)) - 2
    peers = []
    for i in range(N):
        r, c = divmod(i, n)
        peers.append([j for j in range(N) if j != i and not giv[j]
                      and (j // n == r or j % n == c or reg[j] == reg[i])])

    def dead_peer(i):
        """Forward check: an empty peer of i left with no digit at all."""
        for j in peers[i]:
            if not val[j]:
                r, c = divmod(j, n)
                if rowm[r] | colm[c] | regm[reg[j]] == full:
                    return True
        return False

    def walk(p):
        if p == len(order):
            out.append(list(val))
            return len(out) >= limit
        i = order[p]
        for d in range(1, n + 1):
            if allowed(i, d):
                put(i, d, 1)
                if not dead_peer(i) and walk(p + 1):
                    return True
                put(i, d, -1)
        return False

    import sys
    sys.setrecursionlimit(10000)
    walk(0)
    return out


def truth(pz):
    """('UNIQUE'|'MULTIPLE'|'NONE', least grid as list or None)."""
    sols = enumerate_solutions(pz, 2)
    if not sols:
        return "NONE", None
    return ("UNIQUE" if len(sols) == 1 else "MULTIPLE"), sols[0]


def satisfies(pz, grid):
    """Exact invariant: does a complete grid meet every rule of the puzzle?"""
    n = pz["n"]
    if len(grid) != n * n or any(not 1 <= v <= n for v in grid):
        return False
    groups = {}
    for i, v in enumerate(grid):
        r, c = divmod(i, n)
        for key in (("r", r), ("c", c), ("g", pz["reg"][i])):
            groups.setdefault(key, set()).add(v)
    if any(len(s) != n for s in groups.values()):
        return False
    if any(pz["giv"][i] and pz["giv"][i] != grid[i] for i in range(n * n)):
        return False
    for total, cells in pz["cages"]:
        vs = [grid[i] for i in cells]
        if sum(vs) != total or len(set(vs)) != len(vs):
            return False
    if any(not grid[i] < grid[j] for i, j in pz["less"]):
        return False
    for t in pz["thermo"]:
        if any(not grid[t[k]] < grid[t[k + 1]] for k in range(len(t) - 1)):
            return False
    return True


ORDER = ["INCOMPLETE", "GIVEN_CHANGED", "ROW_REPEAT", "COLUMN_REPEAT", "REGION_REPEAT",
         "CAGE_REPEAT", "CAGE_SUM", "INEQUALITY", "THERMO", "NOT_LEAST"]


def verdict(pz, true_status, least, sub_status, sub_rows):
    """(reason, cell) the audit must report for one submission, or None when it is right."""
    n = pz["n"]
    if sub_status != true_status:
        return ("STATUS_WRONG", "")
    if true_status == "NONE":
        return None
    g = []
    for r in range(n):
        line = sub_rows[r] if r < len(sub_rows) else ""
        for c in range(n):
            ch = line[c] if c < len(line) else "?"
            g.append(int(ch) if ch in "123456789"[:n] else 0)
    hits = {code: BIG for code in ORDER}

    def hit(code, i):
        if i < hits[code]:
            hits[code] = i

    def first_repeat(cells, code):
        seen = set()
        for i in sorted(cells):
            if g[i] in seen:
                hit(code, i)
            seen.add(g[i])

    for i in range(n * n):
        if g[i] == 0:
            hit("INCOMPLETE", i)
        if pz["giv"][i] and g[i] != pz["giv"][i]:
            hit("GIVEN_CHANGED", i)
    for r in range(n):
        first_repeat([r * n + c for c in range(n)], "ROW_REPEAT")
        first_repeat([x * n + r for x in range(n)], "COLUMN_REPEAT")
    for k in set(pz["reg"]):
        first_repeat([i for i in range(n * n) if pz["reg"][i] == k], "REGION_REPEAT")
    for total, cells in pz["cages"]:
        first_repeat(cells, "CAGE_REPEAT")
        if sum(g[i] for i in cells) != total:
            hit("CAGE_SUM", min(cells))
    for i, j in pz["less"]:
        if not g[i] < g[j]:
            hit("INEQUALITY", min(i, j))
    for t in pz["thermo"]:
        for k in range(1, len(t)):
            if not g[t[k - 1]] < g[t[k]]:
                hit("THERMO", t[k])
    if true_status == "MULTIPLE":
        for i in range(n * n):
            if g[i] != least[i]:
                hit("NOT_LEAST", i)
                break
    for code in ORDER:
        if hits[code] < BIG:
            r, c = divmod(hits[code], n)
            return (code, "r%dc%d" % (r + 1, c + 1))
    return None
