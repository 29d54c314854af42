#!/usr/bin/env python3
"""Recompute a paper's results table from released predictions, or audit a claimed table.

    python3 /app/repro.py DATA_DIR OUTPUT.csv
    python3 /app/repro.py audit DATA_DIR CLAIMS.csv FINDINGS.csv
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, "/app")
from metrickit import reader, table  # noqa: E402


def main(argv):
    if len(argv) == 4 and argv[0] == "audit":
        from metrickit import audit
        audit.run(reader.load_release(argv[1]), argv[2], argv[3])
        return 0
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    table.write(table.compute(reader.load_release(argv[0])), argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
