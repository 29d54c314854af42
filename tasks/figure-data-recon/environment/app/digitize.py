#!/usr/bin/env python3
"""digitize: recover numbers from house-style charts (see /app/SPEC.md).

  python3 /app/digitize.py extract FIG.png OUT.json
  python3 /app/digitize.py table   PAPER_DIR OUT.json   (reads PAPER_DIR/requests.json)
  python3 /app/digitize.py audit   PAPER_DIR OUT.json   (reads PAPER_DIR/claims.json)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from figkit.extract import extract  # noqa: E402
from figkit.ops import table  # noqa: E402


def write(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")


def main(argv):
    if len(argv) != 3 or argv[0] not in ("extract", "table", "audit"):
        print(__doc__, file=sys.stderr)
        return 2
    cmd, src, out = argv
    if cmd == "extract":
        write(out, extract(src))
    elif cmd == "table":
        with open(os.path.join(src, "requests.json")) as f:
            write(out, table(src, json.load(f)))
    else:
        print("audit: not written yet", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
