#!/usr/bin/env python3
"""Colony counter CLI.

  python3 /app/blobs.py IMAGE.png                          one image's blob table as JSON
  python3 /app/blobs.py batch BATCH_DIR OUT.csv            a plate batch's colony report
  python3 /app/blobs.py audit BATCH_DIR MANUAL.csv OUT.csv audit of a technician's manual counts
"""
import json, os, sys

sys.path.insert(0, "/app")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from colony import measure, plates  # noqa: E402


def main(argv):
    if len(argv) == 3 and argv[0] == "batch":
        plates.run_batch(argv[1], argv[2])
        return 0
    if len(argv) == 4 and argv[0] == "audit":
        from colony import audit
        audit.audit(argv[1], argv[2], argv[3])
        return 0
    if len(argv) == 1:
        print(json.dumps(measure.analyse(argv[0])))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
