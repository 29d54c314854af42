#!/usr/bin/env python3
"""gridkit command line.

    solver.py solve PUZZLE.pz OUT.txt
    solver.py batch PUZZLE_DIR OUT_DIR
    solver.py audit PUZZLE_DIR SUBMISSIONS_DIR OUT.csv
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gridkit.answer import write_answer  # noqa: E402
from gridkit.parser import load  # noqa: E402
from gridkit.search import solve  # noqa: E402
from gridkit.batch import solve_folder  # noqa: E402


def main(argv):
    if len(argv) == 3 and argv[0] == "solve":
        status, grid = solve(load(argv[1]))
        write_answer(argv[2], status, grid)
        return 0
    if len(argv) == 3 and argv[0] == "batch":
        solve_folder(argv[1], argv[2])
        return 0
    if len(argv) == 4 and argv[0] == "audit":
        from gridkit.audit import audit_folder
        audit_folder(argv[1], argv[2], argv[3])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
