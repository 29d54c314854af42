#!/usr/bin/env python3
"""examtt: exam timetabling tool.

  examtt.py solve INSTANCE.ett OUT.csv            write a timetable for the instance
  examtt.py check INSTANCE.ett TIMETABLE.csv      print the problems of a timetable and its penalty
"""
import sys

from ttlib import lang, rules, search
from ttlib.timetable import read, save


def cmd_solve(inst_path, out):
    inst = lang.load(inst_path)
    try:
        rows = search.solve(inst)
    except search.NoTimetable as e:
        print("examtt: %s" % e, file=sys.stderr)
        return 1
    save(out, rows)
    return 0


def cmd_check(inst_path, tt_path):
    inst = lang.load(inst_path)
    rows = read(tt_path)
    for m in rules.violations(inst, rows):
        print(m)
    at = {r[0]: inst.slot_index(r[1], r[2]) for r in rows}
    print("penalty", rules.penalty(inst, at))
    return 0


def main(argv):
    if len(argv) == 3 and argv[0] == "solve":
        return cmd_solve(argv[1], argv[2])
    if len(argv) == 3 and argv[0] == "check":
        return cmd_check(argv[1], argv[2])
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
