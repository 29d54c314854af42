#!/usr/bin/env python3
"""Command line of ridgekit: cross-validated ridge regression for the cohort study.

    python3 /app/ridgecv.py run STUDY_DIR OUT_DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ridgekit.report import run_study  # noqa: E402


def main(argv):
    if len(argv) == 3 and argv[0] == "run":
        run_study(argv[1], argv[2])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
