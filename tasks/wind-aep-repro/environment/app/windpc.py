#!/usr/bin/env python3
"""windpc: wind-farm performance report and claim audit from 10-minute SCADA.

  python3 /app/windpc.py run SITE_DIR OUT_DIR
  python3 /app/windpc.py audit SITE_DIR CLAIMS_CSV OUT_CSV
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

from windkit import report  # noqa: E402


def main(argv):
    if len(argv) == 3 and argv[0] == "run":
        report.run(argv[1], argv[2])
        return 0
    if argv and argv[0] == "audit":
        sys.stderr.write("windpc: audit is not implemented yet\n")
        return 2
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
