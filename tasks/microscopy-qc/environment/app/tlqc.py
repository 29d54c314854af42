#!/usr/bin/env python3
"""tlqc: time-lapse acquisition QC for the imaging facility.

    tlqc.py SESSION_DIR OUT_DIR   writes qc.csv, drift.csv, cells.csv and audit.csv into OUT_DIR
"""
import csv
import os
import sys

from scopekit.pipeline import Session


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    s = Session(argv[1])
    out = argv[2]
    os.makedirs(out, exist_ok=True)
    frames = list(s.frames())
    write(os.path.join(out, "qc.csv"), ["field", "frame", "status", "reasons", "saturation", "background"],
          [[f.field, f.index, "fail" if f.reasons else "pass", ";".join(f.reasons), "%.4f" % f.saturation,
            "%.1f" % f.background] for f in frames])
    write(os.path.join(out, "drift.csv"), ["field", "frame", "dx", "dy"],
          [[f.field, f.index, f.drift[0], f.drift[1]] for f in frames if f.drift is not None])
    write(os.path.join(out, "cells.csv"), ["field", "frame", "cells"],
          [[f.field, f.index, f.cells] for f in frames if f.cells is not None])
    write(os.path.join(out, "audit.csv"), ["field", "frame", "item", "reported", "actual"], s.audit())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
