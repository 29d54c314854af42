"""Seeded generalised-sudoku instances (always satisfiable by construction) and a checker."""


def full_grid(rng, br, bc):
    n = br * bc
    base = [[(bc * (r % br) + r // br + c) % n for c in range(n)] for r in range(n)]
    bands = rng.sample(range(bc), bc)
    rows = [b * br + r for b in bands for r in rng.sample(range(br), br)]
    stacks = rng.sample(range(br), br)
    cols = [s * bc + c for s in stacks for c in rng.sample(range(bc), bc)]
    digits = rng.sample(range(1, n + 1), n)
    return [[digits[base[r][c]] for c in cols] for r in rows]


def cages(rng, sol):
    n = len(sol)
    left = {(r, c) for r in range(n) for c in range(n)}
    out = []
    while left:
        start = min(left) if rng.random() < 0.5 else rng.choice(sorted(left))
        cage, vals = [start], {sol[start[0]][start[1]]}
        left.discard(start)
        target = rng.choice([1, 2, 2, 3, 3, 3, 4, 4])
        while len(cage) < target:
            nb = [(r + dr, c + dc) for r, c in cage for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                  if (r + dr, c + dc) in left and sol[r + dr][c + dc] not in vals]
            if not nb:
                break
            x = rng.choice(sorted(set(nb)))
            cage.append(x)
            vals.add(sol[x[0]][x[1]])
            left.discard(x)
        out.append({"sum": sum(sol[r][c] for r, c in cage), "cells": [list(x) for x in sorted(cage)]})
    rng.shuffle(out)
    return out


def make(rng, kind):
    if kind == "classic":
        br, bc, keep = 3, 3, rng.uniform(0.38, 0.45)
    elif kind == "sizes":
        br, bc = rng.choice([(2, 3), (3, 2), (2, 4), (4, 2), (3, 4), (4, 3), (4, 4)])
        keep = {6: 0.3, 8: 0.38, 12: 0.52, 16: 0.6}[br * bc]
    elif kind == "killer":
        br, bc, keep = rng.choice([(3, 3), (3, 3), (2, 3)]) + (rng.uniform(0.12, 0.18),)
    else:  # inequality
        br, bc, keep = rng.choice([(3, 3), (2, 3), (2, 4)]) + (rng.uniform(0.22, 0.28),)
    n = br * bc
    sol = full_grid(rng, br, bc)
    givens = [[sol[r][c] if rng.random() < keep else 0 for c in range(n)] for r in range(n)]
    pz = {"size": n, "box": [br, bc], "givens": givens}
    if kind == "killer":
        pz["cages"] = cages(rng, sol)
    if kind == "inequality":
        lt = []
        for r in range(n):
            for c in range(n):
                for dr, dc in ((0, 1), (1, 0)):
                    r2, c2 = r + dr, c + dc
                    if r2 < n and c2 < n and rng.random() < 0.45:
                        a, b = ((r, c), (r2, c2)) if sol[r][c] < sol[r2][c2] else ((r2, c2), (r, c))
                        lt.append([list(a), list(b)])
        rng.shuffle(lt)
        pz["less_than"] = lt
    return pz


def check(pz, grid):
    """Returns (ok, reason)."""
    n = pz["size"]
    br, bc = pz["box"]
    try:
        if len(grid) != n or any(len(row) != n for row in grid):
            return False, "wrong shape"
        want = set(range(1, n + 1))
        for r in range(n):
            if set(grid[r]) != want:
                return False, "row %d" % r
        for c in range(n):
            if {grid[r][c] for r in range(n)} != want:
                return False, "column %d" % c
        for b in range(n):
            r0, c0 = b // (n // bc) * br, b % (n // bc) * bc
            if {grid[r0 + i][c0 + j] for i in range(br) for j in range(bc)} != want:
                return False, "box %d" % b
        for r in range(n):
            for c in range(n):
                if pz["givens"][r][c] and grid[r][c] != pz["givens"][r][c]:
                    return False, "given (%d,%d)" % (r, c)
        for cg in pz.get("cages", []):
            vals = [grid[r][c] for r, c in cg["cells"]]
            if sum(vals) != cg["sum"] or len(set(vals)) != len(vals):
                return False, "cage at %s" % cg["cells"][0]
        for a, b in pz.get("less_than", []):
            if not grid[a[0]][a[1]] < grid[b[0]][b[1]]:
                return False, "inequality %s<%s" % (a, b)
    except Exception as e:
        return False, "malformed: %s" % e
    return True, "ok"
