#!/usr/bin/env python3
"""Simulate the zone over an input schedule.

  python3 /app/simulate.py --params PARAMS.json --inputs INPUTS.csv --out STATES.csv
"""
import argparse, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from thermsim import read_inputs, read_params, simulate, write_states  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--params", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    p, x0 = read_params(a.params)
    rows = read_inputs(a.inputs)
    if not rows:
        sys.exit("no input rows")
    write_states(a.out, simulate(p, x0, rows))


if __name__ == "__main__":
    main()
