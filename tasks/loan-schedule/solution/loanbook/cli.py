"""Command line: `CONTRACTS_DIR OUTPUT_DIR` books schedules; `audit CONTRACTS_DIR STATEMENTS_CSV OUT_CSV`."""
import csv
import json
import os
import sys

from .amendments import terms
from .money import fmt
from .schedule import COLUMNS, build
from .summary import entry
from .validate import check_terms, schedule_problems


def book(src, out):
    os.makedirs(out, exist_ok=True)
    summary = {}
    for name in sorted(os.listdir(src)):
        if not name.endswith(".txt"):
            continue
        stem = name[:-4]
        with open(os.path.join(src, name), encoding="utf-8") as f:
            t = check_terms(stem, terms(f.read()))
        rows = build(t)
        for problem in schedule_problems(t, rows):
            sys.stderr.write("warning: %s: %s\n" % (stem, problem))
        with open(os.path.join(out, stem + ".csv"), "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(COLUMNS)
            for r in rows:
                w.writerow([r["k"], r["date"]] + [fmt(r[c]) for c in COLUMNS[2:]])
        summary[stem] = entry(t, rows)
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")


def main(argv):
    if len(argv) == 4 and argv[0] == "audit":
        from .audit import audit
        audit(argv[1], argv[2], argv[3])
        return 0
    if len(argv) == 2:
        book(argv[0], argv[1])
        return 0
    sys.stderr.write("usage: loan.py CONTRACTS_DIR OUTPUT_DIR | loan.py audit CONTRACTS_DIR STATEMENTS_CSV OUT_CSV\n")
    return 2
