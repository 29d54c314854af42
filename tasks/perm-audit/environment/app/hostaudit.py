#!/usr/bin/env python3
"""hostaudit command line: audit SNAPSHOT OUT.json"""
import sys
from hostaudit.audit import audit
from hostaudit.report import write_findings
from hostaudit.snapshot import Snapshot


def main(argv):
    if len(argv) != 3 or argv[0] != "audit":
        sys.stderr.write(__doc__ + "\n")
        return 2
    _, src, dest = argv
    write_findings(audit(Snapshot(src)), dest)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
