"""Backtracking search over candidate states.

`solve(puzzle)` returns (status, grid): status is UNIQUE, MULTIPLE or NONE (the search counts
solutions up to two); grid is the lexicographically least solution (cells compared in reading
order), or None.
"""

from .propagate import assign, initial

UNIQUE, MULTIPLE, NONE = "UNIQUE", "MULTIPLE", "NONE"


def _choose(puzzle, cands):
    """The next cell to branch on: the open cell with the fewest candidates (first in reading
    order on ties), which keeps the search tree small."""
    best = None
    for cell in puzzle.cells:
        k = len(cands[cell])
        if k > 1 and (best is None or k < len(cands[best])):
            best = cell
    return best


def _grid(puzzle, cands):
    n = puzzle.n
    return [[next(iter(cands[(r, c)])) for c in range(n)] for r in range(n)]


def search(puzzle, limit=2):
    """Up to `limit` solutions, in lexicographic order."""
    start = initial(puzzle)
    found = []
    if start is None:
        return found
    stack = [start]
    while stack:
        state = stack.pop()
        cands = state[0]
        cell = _choose(puzzle, cands)
        if cell is None:
            found.append(_grid(puzzle, cands))
            if len(found) >= limit:
                break
            continue
        children = []
        for d in sorted(cands[cell]):
            nxt = assign(puzzle, state, cell, d)
            if nxt is not None:
                children.append(nxt)
        stack.extend(reversed(children))
    return found


def solve(puzzle):
    found = search(puzzle, limit=1)
    if not found:
        return NONE, None
    return (UNIQUE if len(found) == 1 else MULTIPLE), found[0]
