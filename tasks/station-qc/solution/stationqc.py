#!/usr/bin/env python3
"""Network QC of hourly air temperature.

    python3 /app/stationqc.py run INPUT_DIR OUT_DIR           daily.csv and flags.csv
    python3 /app/stationqc.py audit INPUT_DIR AGENCY_CSV OUT_CSV
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from qckit import audit, daily, network, output  # noqa: E402


def cmd_run(folder, out_dir):
    observations, climatology = network.load(folder)
    rows, summary = daily.run_network(observations, climatology)
    output.write_rows(os.path.join(out_dir, "daily.csv"), output.DAILY_COLUMNS, rows)
    output.write_rows(os.path.join(out_dir, "flags.csv"), output.SUMMARY_COLUMNS, summary)


def cmd_audit(folder, agency_csv, out_csv):
    audit.write_findings(out_csv, audit.audit(folder, agency_csv))


def main(argv):
    if len(argv) == 3 and argv[0] == "run":
        cmd_run(argv[1], argv[2])
        return 0
    if len(argv) == 4 and argv[0] == "audit":
        cmd_audit(argv[1], argv[2], argv[3])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
