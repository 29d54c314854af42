#!/usr/bin/env python3
"""orbitkit command line.

  python3 propagate.py INPUT.json OUTPUT.json          propagate a batch of bodies
  python3 propagate.py report CATALOG.json OUTPUT.json  orbit report for a catalogue window
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from orbitkit import catalog  # noqa: E402


def main(argv):
    if len(argv) == 4 and argv[1] == "report":
        job, src, dst = catalog.report, argv[2], argv[3]
    elif len(argv) == 3:
        job, src, dst = catalog.propagate_batch, argv[1], argv[2]
    else:
        sys.stderr.write(__doc__)
        return 2
    with open(src, encoding="utf-8") as f:
        doc = json.load(f)
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(job(doc), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
