"""Payroll run command line: `run PERIOD_DIR OUT_DIR`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from payroll.register import run  # noqa: E402


def main(argv):
    if len(argv) == 3 and argv[0] == "run":
        run(argv[1], argv[2])
        return 0
    sys.stderr.write("usage: payrun.py run PERIOD_DIR OUT_DIR\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
