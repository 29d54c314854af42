"""Candidate propagation.

A state maps every cell to its set of candidate digits. Fixing a cell removes its digit from
its peers (row, column, region); cells left with one candidate are fixed in turn. Killer cages
narrow their cells to the digits that can still complete the cage sum.
"""

from .rules import consistent, thermo_range


class Contradiction(Exception):
    pass


def _grid(puzzle, cands):
    n = puzzle.n
    g = [[0] * n for _ in range(n)]
    for (r, c), s in cands.items():
        if len(s) == 1:
            g[r][c] = next(iter(s))
    return g


def _cage_prune(puzzle, cands):
    """Removes cage candidates that cannot complete the sum; returns the cells narrowed."""
    n = puzzle.n
    narrowed = []
    for cage in puzzle.cages:
        fixed = [next(iter(cands[x])) for x in cage.cells if len(cands[x]) == 1]
        used = set(fixed)
        free = [x for x in cage.cells if len(cands[x]) > 1]
        if not free:
            continue
        m = len(free) - 1
        rest = cage.total - sum(fixed)
        for x in free:
            keep = set()
            for d in cands[x]:
                if d in used:
                    continue
                avail = [v for v in range(1, n + 1) if v not in used and v != d]
                if m > len(avail):
                    continue
                lo = sum(avail[:m])
                hi = sum(avail[len(avail) - m:])
                if lo <= rest - d <= hi:
                    keep.add(d)
            if keep != cands[x]:
                if not keep:
                    raise Contradiction(x)
                cands[x] = keep
                narrowed.append(x)
    return narrowed


def _eliminate(puzzle, cands, queue, fixed):
    while queue:
        cell = queue.pop()
        if cell in fixed:
            continue
        fixed.add(cell)
        d = next(iter(cands[cell]))
        for p in puzzle.peers[cell]:
            s = cands[p]
            if d in s:
                if len(s) == 1:
                    raise Contradiction(p)
                s = s - {d}
                cands[p] = s
                if len(s) == 1:
                    queue.append(p)


def settle(puzzle, cands, queue, fixed):
    """Propagates to a fixpoint. `fixed` holds the cells whose digit is already spread to
    their peers; the cells fixed here are checked against the rules."""
    before = set(fixed)
    while True:
        _eliminate(puzzle, cands, queue, fixed)
        narrowed = _cage_prune(puzzle, cands)
        queue.extend(x for x in narrowed if len(cands[x]) == 1 and x not in fixed)
        if not queue:
            break
    grid = _grid(puzzle, cands)
    for cell in fixed - before:
        if not consistent(puzzle, grid, cell):
            raise Contradiction(cell)
    return cands


def initial(puzzle):
    """The starting candidates, or None when the givens already contradict."""
    n = puzzle.n
    cands = {cell: set(range(1, n + 1)) for cell in puzzle.cells}
    for th in puzzle.thermos:
        for pos, cell in enumerate(th.cells):
            cands[cell] &= set(thermo_range(n, len(th.cells), pos))
    queue = []
    for r in range(n):
        for c in range(n):
            v = puzzle.givens[r][c]
            if v:
                if v not in cands[(r, c)]:
                    return None
                cands[(r, c)] = {v}
    for cell in puzzle.cells:
        if not cands[cell]:
            return None
        if len(cands[cell]) == 1:
            queue.append(cell)
    fixed = set()
    try:
        settle(puzzle, cands, queue, fixed)
    except Contradiction:
        return None
    return cands, fixed


def assign(puzzle, state, cell, digit):
    """A new state with `cell` = `digit`, or None on a contradiction."""
    cands, fixed = state
    cands = dict(cands)
    cands[cell] = {digit}
    fixed = set(fixed)
    try:
        return settle(puzzle, cands, [cell], fixed), fixed
    except Contradiction:
        return None
