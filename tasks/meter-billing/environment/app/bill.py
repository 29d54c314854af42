#!/usr/bin/env python3
"""meterbill command line.

    python3 /app/bill.py run PERIOD_DIR OUT_DIR     bills.csv and lines.csv of a period folder
    python3 /app/bill.py check PERIOD_DIR           sanity checks of a period folder
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from meterbill.billing import bill_period, write_outputs  # noqa: E402
from meterbill.validate import check  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(prog="bill.py", description="Retail-energy bills from smart-meter reads.")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="bill a period folder")
    r.add_argument("period_dir")
    r.add_argument("out_dir")
    c = sub.add_parser("check", help="sanity checks of a period folder")
    c.add_argument("period_dir")
    args = p.parse_args(argv)
    if args.cmd == "check":
        errors, warnings = check(args.period_dir)
        for w in warnings:
            print("warning:", w)
        for e in errors:
            print("error:", e)
        return 1 if errors else 0
    write_outputs(bill_period(args.period_dir), args.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
