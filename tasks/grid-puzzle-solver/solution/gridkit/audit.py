"""Auditing contestants' submissions (docs/FORMAT.md, "Audit").

Each wrong submission gets one reason, the first that applies in REASONS order, and the first
offending cell in reading order (none for STATUS_WRONG).
"""

import csv
import os

from .answer import read_answer
from .cells import cell_name
from .parser import load
from .search import MULTIPLE, NONE, solve

REASONS = ("STATUS_WRONG", "INCOMPLETE", "GIVEN_CHANGED", "ROW_REPEAT", "COLUMN_REPEAT",
           "REGION_REPEAT", "CAGE_REPEAT", "CAGE_SUM", "INEQUALITY", "THERMO", "NOT_LEAST")


def _read_grid(puzzle, rows):
    """The submitted digits (0 where missing or not a digit 1..n)."""
    n = puzzle.n
    grid = [[0] * n for _ in range(n)]
    for r in range(min(n, len(rows))):
        for c in range(min(n, len(rows[r]))):
            ch = rows[r][c]
            if ch.isdigit() and 1 <= int(ch) <= n:
                grid[r][c] = int(ch)
    return grid


def _repeats(cells, grid):
    """Cells whose digit already appeared earlier (reading order) in the group."""
    seen, out = set(), []
    for r, c in sorted(cells):
        v = grid[r][c]
        if v in seen:
            out.append((r, c))
        seen.add(v)
    return out


def offences(puzzle, grid, truth):
    """reason -> offending cells, in REASONS order (first non-empty wins)."""
    n = puzzle.n
    cells = puzzle.cells
    yield "INCOMPLETE", [x for x in cells if grid[x[0]][x[1]] == 0]
    yield "GIVEN_CHANGED", [x for x in cells if puzzle.givens[x[0]][x[1]]
                            and grid[x[0]][x[1]] != puzzle.givens[x[0]][x[1]]]
    yield "ROW_REPEAT", [x for r in range(n) for x in _repeats([(r, c) for c in range(n)], grid)]
    yield "COLUMN_REPEAT", [x for c in range(n) for x in _repeats([(r, c) for r in range(n)], grid)]
    regions = {}
    for x in cells:
        regions.setdefault(puzzle.region(x), []).append(x)
    yield "REGION_REPEAT", [x for k in regions for x in _repeats(regions[k], grid)]
    yield "CAGE_REPEAT", [x for cage in puzzle.cages for x in _repeats(cage.cells, grid)]
    yield "CAGE_SUM", [x for cage in puzzle.cages
                       if sum(grid[r][c] for r, c in cage.cells) != cage.total for x in cage.cells]
    yield "INEQUALITY", [x for lt in puzzle.lesses
                         if not grid[lt.a[0]][lt.a[1]] < grid[lt.b[0]][lt.b[1]] for x in (lt.a, lt.b)]
    bad = []
    for th in puzzle.thermos:
        for p, q in zip(th.cells, th.cells[1:]):
            if not grid[p[0]][p[1]] < grid[q[0]][q[1]]:
                bad.append(q)
    yield "THERMO", bad
    status, least = truth
    if status == MULTIPLE:
        yield "NOT_LEAST", [x for x in cells if grid[x[0]][x[1]] != least[x[0]][x[1]]]


def judge(puzzle, submitted_status, rows, truth):
    """(reason, cell name) for a wrong submission, None for a right one."""
    status = truth[0]
    if submitted_status != status:
        return "STATUS_WRONG", ""
    if status == NONE:
        return None
    grid = _read_grid(puzzle, rows)
    for reason, bad in offences(puzzle, grid, truth):
        if bad:
            return reason, cell_name(min(bad))
    return None


def audit_folder(puzzle_dir, sub_dir, out_csv):
    truths, puzzles = {}, {}
    rows_out = []
    for who in sorted(os.listdir(sub_dir)):
        folder = os.path.join(sub_dir, who)
        if not os.path.isdir(folder):
            continue
        for fname in sorted(os.listdir(folder)):
            stem, ext = os.path.splitext(fname)
            pz = os.path.join(puzzle_dir, stem + ".pz")
            if ext != ".txt" or not os.path.exists(pz):
                continue
            if stem not in puzzles:
                puzzles[stem] = load(pz)
                truths[stem] = solve(puzzles[stem])
            status, rows = read_answer(os.path.join(folder, fname))
            verdict = judge(puzzles[stem], status, rows, truths[stem])
            if verdict:
                rows_out.append((who, stem) + verdict)
    with open(out_csv, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["contestant", "puzzle", "reason", "cell"])
        w.writerows(rows_out)
