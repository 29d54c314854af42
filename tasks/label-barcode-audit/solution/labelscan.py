"""labelscan: read warehouse label scans, reconcile them with a packing manifest, audit an
inventory log.

  python3 labelscan.py decode    SCAN_DIR  OUT.json
  python3 labelscan.py reconcile BATCH_DIR OUT.json
  python3 labelscan.py audit     BATCH_DIR OUT.json
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scankit import batch  # noqa: E402


def write(path, obj):
    with open(path, "w") as fh:
        json.dump(obj, fh, indent=1, sort_keys=True)
        fh.write("\n")


def main(argv):
    if len(argv) != 3 or argv[0] not in ("decode", "reconcile", "audit"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    cmd, src, out = argv
    if cmd == "decode":
        write(out, batch.decode_dir(src))
    elif cmd == "reconcile":
        write(out, batch.reconcile(src))
    else:
        write(out, batch.audit(src))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
