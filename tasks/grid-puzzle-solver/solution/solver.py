#!/usr/bin/env python3
"""Generalised sudoku solver: any r×c boxes, givens, killer cages, inequalities. MRV + bitmasks."""
import json, sys


def solve(pz):
    n = pz["size"]
    br, bc = pz["box"]
    cells = n * n
    grid = [v for row in pz["givens"] for v in row]
    full = (1 << (n + 1)) - 2
    rows, cols, boxes = [0] * n, [0] * n, [0] * n
    box_of = [(i // n) // br * (n // bc) + (i % n) // bc for i in range(cells)]
    cage_of = [-1] * cells
    cages = []
    for k, cg in enumerate(pz.get("cages", [])):
        idx = [r * n + c for r, c in cg["cells"]]
        for i in idx:
            cage_of[i] = k
        cages.append(dict(sum=cg["sum"], cells=idx, used=0, total=0, empty=len(idx)))
    lt = [[] for _ in range(cells)]  # (other, sign): sign=-1 means self < other
    for (a, b) in pz.get("less_than", []):
        i, j = a[0] * n + a[1], b[0] * n + b[1]
        lt[i].append((j, -1))
        lt[j].append((i, 1))

    def place(i, d, on):
        bit = 1 << d
        r, c = divmod(i, n)
        for arr, k in ((rows, r), (cols, c), (boxes, box_of[i])):
            arr[k] ^= bit
        if cage_of[i] >= 0:
            cg = cages[cage_of[i]]
            cg["used"] ^= bit
            cg["total"] += d if on else -d
            cg["empty"] += -1 if on else 1
        grid[i] = d if on else 0

    for i, v in enumerate(grid):
        if v:
            place(i, v, True)

    def cands(i):
        r, c = divmod(i, n)
        m = full & ~(rows[r] | cols[c] | boxes[box_of[i]])
        if cage_of[i] >= 0:
            cg = cages[cage_of[i]]
            m &= ~cg["used"]
            rem = cg["sum"] - cg["total"]
            k = cg["empty"] - 1
            free = [d for d in range(1, n + 1) if not (cg["used"] >> d) & 1]
            out = 0
            for d in range(1, n + 1):
                if (m >> d) & 1:
                    rest = rem - d
                    others = [x for x in free if x != d]
                    if k == 0:
                        ok = rest == 0
                    else:
                        ok = len(others) >= k and sum(others[:k]) <= rest <= sum(others[-k:])
                    if ok:
                        out |= 1 << d
            m = out
        for j, s in lt[i]:
            v = grid[j]
            if v:
                m &= ((1 << v) - 1) if s == -1 else (full & ~((1 << (v + 1)) - 1))
        return m

    empties = [i for i in range(cells) if not grid[i]]

    def dfs():
        best, bm, bc_ = None, 0, 99
        for i in empties:
            if grid[i]:
                continue
            m = cands(i)
            cnt = bin(m).count("1")
            if cnt < bc_:
                best, bm, bc_ = i, m, cnt
                if cnt <= 1:
                    break
        if best is None:
            return True
        if bc_ == 0:
            return False
        for d in range(1, n + 1):
            if (bm >> d) & 1:
                place(best, d, True)
                if dfs():
                    return True
                place(best, d, False)
        return False

    if not dfs():
        return None
    return [grid[r * n:(r + 1) * n] for r in range(n)]


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    pz = json.load(open(sys.argv[1]))
    json.dump({"grid": solve(pz)}, open(sys.argv[2], "w"))
