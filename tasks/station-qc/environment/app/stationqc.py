#!/usr/bin/env python3
"""Network QC of hourly air temperature.

    python3 /app/stationqc.py run INPUT_DIR OUT_DIR      writes OUT_DIR/daily.csv and OUT_DIR/flags.csv
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from qckit import daily, network, output, summary  # noqa: E402


def cmd_run(folder, out_dir):
    observations, climatology = network.load(folder)
    rows, flags = daily.run_network(observations, climatology)
    output.write_rows(os.path.join(out_dir, "daily.csv"), output.DAILY_COLUMNS, rows)
    output.write_rows(os.path.join(out_dir, "flags.csv"), output.SUMMARY_COLUMNS, summary.rows(flags))


def main(argv):
    if len(argv) == 3 and argv[0] == "run":
        cmd_run(argv[1], argv[2])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
