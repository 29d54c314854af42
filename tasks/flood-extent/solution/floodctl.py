#!/usr/bin/env python3
"""floodctl: flood change detection from pre/post-event tiles.

    floodctl.py flood CASE_DIR OUT.csv   newly flooded hectares per district
    floodctl.py audit CASE_DIR OUT.csv   per-tile cloud fraction and misregistration flags
"""
import csv
import sys

from floodkit.analysis import Case


def main(argv):
    if len(argv) != 4 or argv[1] not in ("flood", "audit"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    case = Case(argv[2])
    with open(argv[3], "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        if argv[1] == "flood":
            w.writerow(["district", "observed_ha", "flooded_ha"])
            for name, obs, new in case.flood():
                w.writerow([name, "%.2f" % obs, "%.2f" % new])
        else:
            w.writerow(["date", "tile", "cloud_fraction", "cloudy", "misregistered"])
            for date, tid, frac, cloudy, mis in case.audit():
                w.writerow([date, tid, "%.4f" % frac, "yes" if cloudy else "no", "yes" if mis else "no"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
