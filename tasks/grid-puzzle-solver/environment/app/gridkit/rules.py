"""Consistency checks of a partial grid (0 = empty) after a cell is filled.

`consistent(puzzle, grid, cell)` looks only at the constraints that involve `cell`; the search
calls it for every cell it fixes, so a complete grid that passed it for every cell is a solution.
"""


def _unit_ok(puzzle, grid, cell):
    r, c = cell
    v = grid[r][c]
    for p in puzzle.peers[cell]:
        if grid[p[0]][p[1]] == v:
            return False
    return True


def cage_bounds(n, used, k):
    """Smallest and largest sums of k distinct digits of 1..n not in `used`."""
    avail = [d for d in range(1, n + 1) if d not in used]
    if k > len(avail):
        return None
    return sum(avail[:k]), sum(avail[len(avail) - k:])


def _cage_ok(puzzle, grid, cell):
    cage = puzzle.cage_of.get(cell)
    if cage is None:
        return True
    vals = [grid[r][c] for r, c in cage.cells if grid[r][c]]
    if len(set(vals)) != len(vals):
        return False
    empty = len(cage.cells) - len(vals)
    bounds = cage_bounds(puzzle.n, set(vals), empty)
    if bounds is None:
        return False
    rest = cage.total - sum(vals)
    return bounds[0] <= rest <= bounds[1]


def _less_ok(puzzle, grid, cell):
    for lt in puzzle.less_of[cell]:
        if lt.b != cell:
            continue    # each sign is checked once, from its larger cell
        va = grid[lt.a[0]][lt.a[1]]
        vb = grid[lt.b[0]][lt.b[1]]
        if va and vb and not va < vb:
            return False
    return True


def _thermo_ok(puzzle, grid, cell):
    for th in puzzle.thermo_of[cell]:
        vals = [grid[r][c] for r, c in th.cells]
        for i in range(len(vals) - 1):
            if vals[i] and vals[i + 1] and not vals[i] <= vals[i + 1]:
                return False
    return True


CHECKS = (_unit_ok, _cage_ok, _less_ok, _thermo_ok)


def consistent(puzzle, grid, cell):
    return all(check(puzzle, grid, cell) for check in CHECKS)


def thermo_range(n, length, pos):
    """Digits possible at position pos (0 = bulb) of a thermometer of `length` cells."""
    return range(pos + 1, n - (length - 1 - pos) + 1)
