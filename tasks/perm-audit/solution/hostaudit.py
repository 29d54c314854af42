#!/usr/bin/env python3
"""hostaudit command line: audit SNAPSHOT OUT.json | fleet FLEET_DIR OUT.json | plan SNAPSHOT OUT.json"""
import json, sys
from hostaudit.audit import audit
from hostaudit.fleet import summary
from hostaudit.plan import plan
from hostaudit.report import write_findings
from hostaudit.snapshot import Snapshot


def main(argv):
    if len(argv) != 3 or argv[0] not in ("audit", "fleet", "plan"):
        sys.stderr.write(__doc__ + "\n")
        return 2
    cmd, src, dest = argv
    if cmd == "audit":
        write_findings(audit(Snapshot(src)), dest)
    elif cmd == "fleet":
        with open(dest, "w") as f:
            json.dump(summary(src), f, indent=1)
    else:
        with open(dest, "w") as f:
            json.dump(plan(Snapshot(src)), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
