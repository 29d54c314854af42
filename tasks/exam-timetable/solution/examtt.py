#!/usr/bin/env python3
"""examtt: exam timetabling tool.

  examtt.py solve INSTANCE.ett OUT.csv            write a timetable for the instance
  examtt.py audit INSTANCE.ett TIMETABLE.csv OUT.csv   list every violated rule with its code
  examtt.py check INSTANCE.ett TIMETABLE.csv      print the violations and the penalty
"""
import csv
import sys

from ttlib import lang, rules, search, timetable


def cmd_solve(inst_path, out):
    inst = lang.load(inst_path)
    rows, cost = search.Search(inst, seed=7, budget=10.0).solve()
    timetable.write(out, rows)
    return 0


def cmd_audit(inst_path, tt_path, out):
    inst = lang.load(inst_path)
    found = rules.violations(inst, timetable.read(tt_path))
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["code", "subject"])
        for code, subject in found:
            w.writerow([code, subject])
    return 0


def cmd_check(inst_path, tt_path):
    inst = lang.load(inst_path)
    rows = timetable.read(tt_path)
    for code, subject in rules.violations(inst, rows):
        print(code, subject)
    at = {r[0]: inst.slot_index(r[1], r[2]) for r in rows}
    print("penalty", rules.penalty(inst, at))
    return 0


def main(argv):
    if len(argv) == 3 and argv[0] == "solve":
        return cmd_solve(argv[1], argv[2])
    if len(argv) == 4 and argv[0] == "audit":
        return cmd_audit(argv[1], argv[2], argv[3])
    if len(argv) == 3 and argv[0] == "check":
        return cmd_check(argv[1], argv[2])
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
