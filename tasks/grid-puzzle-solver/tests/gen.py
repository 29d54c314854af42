"""Seeded puzzle batches for the grader: a solution grid is planted first, every clue (givens,
cages, signs, thermometers) is read off it, then the .pz text is written with varied layout
(comments, blank lines, spaced rows, '0' or '.', continued cage lines).

Status and least solution come from ref.truth (the grader's own search)."""

import ref

SHAPES = {4: [(2, 2)], 6: [(2, 3), (3, 2)], 8: [(2, 4), (4, 2)], 9: [(3, 3)]}
ADJ4 = ((0, 1), (1, 0), (0, -1), (-1, 0))
ADJ8 = ADJ4 + ((1, 1), (1, -1), (-1, 1), (-1, -1))


def boxes(n, h, w):
    return [(r // h) * (n // w) + (c // w) for r in range(n) for c in range(n)]


def planted(rng, n, h, w):
    """A full grid valid for rows, columns and h x w boxes (flat list)."""
    base = [[(w * (r % h) + r // h + c) % n for c in range(n)] for r in range(n)]
    bands = rng.sample(range(n // h), n // h)
    rows = [b * h + x for b in bands for x in rng.sample(range(h), h)]
    stacks = rng.sample(range(n // w), n // w)
    cols = [s * w + x for s in stacks for x in rng.sample(range(w), w)]
    dig = rng.sample(range(1, n + 1), n)
    return [dig[base[r][c]] for r in rows for c in cols]


def jigsaw(rng, n, sol, reg):
    """Irregular regions: swap the region labels of equal digits in different regions (each region
    still holds every digit once). Swaps between neighbouring regions are preferred."""
    reg = list(reg)
    by_digit = {}
    for i, v in enumerate(sol):
        by_digit.setdefault(v, []).append(i)
    for _ in range(rng.randint(2 * n, 4 * n)):
        i, j = rng.sample(by_digit[rng.randint(1, n)], 2)
        if reg[i] != reg[j]:
            reg[i], reg[j] = reg[j], reg[i]
    return reg


def early_cage(rng, n, sol, reg):
    """A scattered cage (cells need not touch) at the top of the grid: r1c1, a cell of row 2 in
    another region and column, and one as low in the grid as possible apart from both, their digits relabelled to
    1, 2, 3 (sum 6). Distinct digits allow only {1, 2, 3}; only the cage forbids 1 + 1 + 4."""
    a = 0
    for b in range(n, 2 * n):
        if b % n != 0 and reg[b] != reg[a] and sol[b] != sol[a]:
            break
    else:
        return sol, None
    for c in range(n * n - 1, 2 * n, -1):
        if (c % n not in (0, b % n) and reg[c] not in (reg[a], reg[b])
                and sol[c] not in (sol[a], sol[b])):
            break
    else:
        return sol, None
    first = [sol[a], sol[b], sol[c]]
    rest = list(range(4, n + 1))
    rng.shuffle(rest)
    relabel = dict(zip(first + [d for d in range(1, n + 1) if d not in first], [1, 2, 3] + rest))
    return [relabel[v] for v in sol], (6, [a, b, c])


def cages_for(rng, n, sol, reg, cover=0.6, taken=()):
    """Cages over about `cover` of the grid (not a tiling: a dropped cage loses a real sum);
    growth favours cells of regions the cage does not touch yet (cells that only the cage
    keeps distinct)."""
    left = set(range(n * n)) - set(taken)
    out = []
    while len(left) > (1 - cover) * n * n:
        start = min(left) if rng.random() < 0.4 else rng.choice(sorted(left))
        cells, vals = [start], {sol[start]}
        left.discard(start)
        want = rng.choice([2, 3, 3, 4, 4, 5])
        while len(cells) < want:
            nb = set()
            for i in cells:
                r, c = divmod(i, n)
                for dr, dc in ADJ4:
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < n and 0 <= cc < n:
                        j = rr * n + cc
                        if j in left and sol[j] not in vals:
                            nb.add(j)
            if not nb:
                break
            fresh = [j for j in sorted(nb) if reg[j] not in {reg[x] for x in cells}]
            j = rng.choice(fresh if fresh and rng.random() < 0.8 else sorted(nb))
            cells.append(j)
            vals.add(sol[j])
            left.discard(j)
        rng.shuffle(cells)         # cells are listed in any order
        out.append((sum(sol[i] for i in cells), cells))
    rng.shuffle(out)
    return out


def signs_for(rng, n, sol, share):
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        for j in ((r * n + c + 1) if c + 1 < n else None, ((r + 1) * n + c) if r + 1 < n else None):
            if j is not None and rng.random() < share:
                out.append((i, j) if sol[i] < sol[j] else (j, i))
    rng.shuffle(out)
    return out


def thermos_for(rng, n, sol, reg, count):
    """Increasing paths; diagonal steps between different regions are favoured (only the
    thermometer then keeps such cells apart)."""
    used = set()
    out = []
    for _ in range(count * 6):
        if len(out) >= count:
            break
        start = rng.randrange(n * n)
        if start in used or sol[start] > n - 2:
            continue
        path = [start]
        while len(path) < rng.randint(3, 6):
            r, c = divmod(path[-1], n)
            opts = []
            for dr, dc in ADJ8:
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n:
                    j = rr * n + cc
                    if j not in used and j not in path and sol[j] > sol[path[-1]]:
                        weight = 3 if (dr and dc and reg[j] != reg[path[-1]]) else 1
                        opts += [j] * weight
            if not opts:
                break
            path.append(rng.choice(opts))
        if len(path) >= 3:
            used.update(path)
            out.append(path)
    return out


def build(rng, kind, n=None, keep=None, sparse=False):
    """One puzzle dict of a kind (classic, jigsaw, killer, signs, thermo, mixed)."""
    n = n or rng.choice([6, 6, 9])
    h, w = rng.choice(SHAPES[n])
    sol = planted(rng, n, h, w)
    reg = boxes(n, h, w)
    pz = {"n": n, "box": (h, w), "sol": sol, "cages": [], "less": [], "thermo": [],
          "greater_share": rng.random()}
    if kind == "jigsaw":
        reg = jigsaw(rng, n, sol, reg)
        pz["box"] = None
    pz["reg"] = reg
    if keep is None:
        keep = {"classic": 0.42, "jigsaw": 0.4, "killer": 0.14, "signs": 0.2, "thermo": 0.32,
                "mixed": 0.2}[kind] + rng.uniform(-0.05, 0.05)
        if n == 9:
            keep += 0.06
        if sparse:
            keep *= 0.55
    if kind in ("killer", "mixed"):
        first = None
        if kind == "killer":
            sol, first = early_cage(rng, n, sol, reg)
            pz["sol"] = sol
        pz["cages"] = cages_for(rng, n, sol, reg, taken=first[1] if first else ())
        if first:
            pz["cages"].insert(rng.randrange(len(pz["cages"]) + 1), first)
    if kind in ("signs", "mixed"):
        pz["less"] = signs_for(rng, n, sol, 0.5 if kind == "signs" else 0.12)
    if kind in ("thermo", "mixed"):
        pz["thermo"] = thermos_for(rng, n, sol, reg, n // 2 + 1 if kind == "thermo" else 2)
    pz["giv"] = [v if rng.random() < keep else 0 for v in sol]
    for total, cells in pz["cages"][:0] + [c for c in pz["cages"] if c[0] == 6 and 0 in c[1]]:
        for i in cells:
            pz["giv"][i] = 0
    return pz


def spoil(rng, pz):
    """A variant meant to have no solution: a wrong digit in an empty cell that breaks no
    row, column or region directly, or a cage total moved by one."""
    n = pz["n"]
    q = dict(pz)
    early = [k for k, (t, cells) in enumerate(pz["cages"]) if t == 6 and len(cells) == 3 and 0 in cells]
    if early and rng.random() < 0.6:
        # three distinct digits add up to 6 at least: NONE by construction (a cage that lets
        # digits repeat still fits 1 + 1 + 2 or 1 + 1 + 3)
        cages = list(pz["cages"])
        cages[early[0]] = (rng.choice([4, 5]), cages[early[0]][1])
        q["cages"] = cages
        return q
    if pz["cages"] and rng.random() < 0.5:
        cages = list(pz["cages"])
        k = rng.randrange(len(cages))
        cages[k] = (cages[k][0] + rng.choice([-1, 1]), cages[k][1])
        q["cages"] = cages
        return q
    giv = list(pz["giv"])
    empty = [i for i in range(n * n) if not giv[i]]
    for _ in range(50):
        i = rng.choice(empty)
        r, c = divmod(i, n)
        seen = {giv[j] for j in range(n * n) if giv[j] and (j // n == r or j % n == c or pz["reg"][j] == pz["reg"][i])}
        opts = [d for d in range(1, n + 1) if d != pz["sol"][i] and d not in seen]
        if opts:
            giv[i] = rng.choice(opts)
            break
    q["giv"] = giv
    return q


def name(i, n):
    return "r%dc%d" % (i // n + 1, i % n + 1)


def to_text(rng, pz, title):
    """The .pz file of a puzzle dict; cages, when present, come last."""
    n = pz["n"]
    L = ["# %s" % title, "# generated puzzle", ""]
    L.append("size %d%s" % (n, "   # grid size" if rng.random() < 0.3 else ""))
    head = []
    if pz["box"]:
        head.append(["box %d %d" % pz["box"]])
    else:
        labels = "ABCDEFGHJ"
        block = ["regions  # region map"]
        for r in range(n):
            row = "".join(labels[pz["reg"][r * n + c]] for c in range(n))
            block.append(" ".join(row) if rng.random() < 0.3 else row)
        head.append(block)
    gb = ["givens"]
    empty = rng.choice(".0")
    for r in range(n):
        row = "".join(str(v) if v else empty for v in pz["giv"][r * n:(r + 1) * n])
        if rng.random() < 0.3:
            row = " ".join(row)
        if rng.random() < 0.15:
            row += "   # row %d" % (r + 1)
        gb.append(row)
    head.append(gb)
    rng.shuffle(head)
    for b in head:
        L += b
        if rng.random() < 0.5:
            L.append("")
    body = []
    for i, j in pz["less"]:
        if rng.random() < pz["greater_share"]:
            body.append("greater %s %s" % (name(j, n), name(i, n)))
        else:
            body.append("less %s %s" % (name(i, n), name(j, n)))
    for t in pz["thermo"]:
        body.append("thermo " + " ".join(name(i, n) for i in t))
    rng.shuffle(body)
    if body and rng.random() < 0.5:
        body.insert(0, "# constraints")
    L += body
    cages = list(pz["cages"])
    if cages:
        # the cage written last is the one nearest the top of the grid (the least solution
        # depends most on the first cells)
        k = min(range(len(cages)), key=lambda x: min(cages[x][1]))
        cages.append(cages.pop(k))
    for total, cells in cages:
        names = [name(i, n) for i in cells]
        if len(names) >= 3 and rng.random() < 0.25:
            L.append("cage %d %s \\" % (total, " ".join(names[:2])))
            L.append("     " + " ".join(names[2:]))
        else:
            L.append("cage %d %s" % (total, " ".join(names)))
    return "\n".join(L) + "\n"


def answer_text(status, grid, n):
    lines = [status]
    if grid is not None:
        lines += ["".join(str(v) for v in grid[r * n:(r + 1) * n]) for r in range(n)]
    return "\n".join(lines) + "\n"
