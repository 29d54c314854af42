"""battsim command line.

    python3 /app/battctl.py dispatch SITE_DIR OUT.csv
    python3 /app/battctl.py bill     SITE_DIR OUT.csv
    python3 /app/battctl.py study    STUDY_DIR OUT.csv
    python3 /app/battctl.py audit    SITE_DIR OUT.csv
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from battsim.audit import audit, write_audit  # noqa: E402
from battsim.battery import Battery  # noqa: E402
from battsim.policy import Policy, dispatch  # noqa: E402
from battsim.report import write_bill, write_dispatch, write_study  # noqa: E402
from battsim.study import COLUMNS, run_study  # noqa: E402
from battsim.timeseries import load_site, read_load  # noqa: E402


def main(argv):
    if len(argv) != 3 or argv[0] not in ("dispatch", "bill", "study", "audit"):
        sys.stderr.write(__doc__)
        return 2
    cmd, folder, out = argv
    if cmd == "study":
        write_study(out, run_study(folder), COLUMNS)
        return 0
    site = load_site(folder)
    if cmd == "audit":
        write_audit(out, audit(folder, site))
        return 0
    battery = Battery(site["battery"])
    steps = dispatch(read_load(folder), battery, Policy(site["policy"]))
    if cmd == "dispatch":
        write_dispatch(out, steps)
    else:
        write_bill(out, steps, Battery(site["battery"]), site)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
