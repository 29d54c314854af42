#!/usr/bin/env python3
"""calibctl: calibration metrics, temperature fitting, the paper's table and claim audits."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calib import audit, io, metrics, temperature, table  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(prog="calibctl.py")
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("metrics")
    m.add_argument("logits")
    m.add_argument("out")
    m.add_argument("--bins", type=int, default=15)
    m.add_argument("--temperature", type=float, default=1.0)
    m.add_argument("--split", default="test")
    f = sub.add_parser("fit")
    f.add_argument("logits")
    f.add_argument("out")
    t = sub.add_parser("table")
    t.add_argument("paper_dir")
    t.add_argument("out")
    a = sub.add_parser("audit")
    a.add_argument("release_dir")
    a.add_argument("out")
    args = ap.parse_args(argv)
    if args.cmd == "metrics":
        rows = io.read_logits(args.logits).select(args.split)
        res = metrics.evaluate(rows, args.bins, args.temperature)
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(res, fh, indent=1)
    elif args.cmd == "fit":
        val = io.read_logits(args.logits).select("val")
        tt = temperature.fit(val)
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump({"temperature": tt, "val_nll_before": metrics.nll(val, 1.0),
                       "val_nll_after": metrics.nll(val, tt)}, fh, indent=1)
    elif args.cmd == "table":
        table.table(args.paper_dir, args.out)
    else:
        audit.audit(args.release_dir, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
