#!/usr/bin/env python3
"""Recompute a paper's results table from released predictions.

    python3 /app/repro.py DATA_DIR OUTPUT.csv
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, "/app")
from metrickit import reader, table  # noqa: E402


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    table.write(table.compute(reader.load_release(argv[0])), argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
