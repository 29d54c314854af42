#!/usr/bin/env python3
"""cnftool: solve DIMACS CNF files, write cardinality encodings, solve slot puzzles."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cnfkit import dimacs, dpll, puzzle  # noqa: E402
from cnfkit.encode import Pool, at_least_k, at_most_k, exactly_k  # noqa: E402

USAGE = """usage:
  cnftool.py solve IN.cnf OUT.txt
  cnftool.py card atmost|atleast|exactly N K OUT.cnf
  cnftool.py puzzle IN.pzl OUT.txt"""


def cmd_solve(src, dst):
    with open(src, encoding="utf-8") as f:
        text = f.read()
    try:
        nvars, clauses = dimacs.parse(text)
    except dimacs.Malformed as e:
        sys.stderr.write("malformed: %s\n" % e)
        out = "s MALFORMED\n"
    else:
        out = dpll.result_text(nvars, dpll.solve(nvars, clauses))
    with open(dst, "w", encoding="utf-8") as f:
        f.write(out)


def cmd_card(kind, n, k, dst):
    n, k = int(n), int(k)
    lits = list(range(1, n + 1))
    pool = Pool(n)
    fn = {"atmost": at_most_k, "atleast": at_least_k, "exactly": exactly_k}[kind]
    clauses = fn(lits, k, pool)
    with open(dst, "w", encoding="utf-8") as f:
        f.write(dimacs.write(pool.top, clauses, ["%s %d of %d" % (kind, k, n)]))


def cmd_puzzle(src, dst):
    with open(src, encoding="utf-8") as f:
        p = puzzle.parse(f.read())
    with open(dst, "w", encoding="utf-8") as f:
        f.write(puzzle.answer_text(puzzle.solve(p)))


def main(argv):
    cmds = {"solve": (cmd_solve, 2), "card": (cmd_card, 4), "puzzle": (cmd_puzzle, 2)}
    if not argv or argv[0] not in cmds or len(argv) - 1 != cmds[argv[0]][1]:
        sys.stderr.write(USAGE + "\n")
        return 2
    cmds[argv[0]][0](*argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
