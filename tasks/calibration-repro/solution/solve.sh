#!/usr/bin/env bash
# Oracle: stable softmax and log-softmax, smallest-index ties, right-closed bins, count-weighted
# ECE, spread equal-mass bins, classwise ECE over every class, Brier summed over classes,
# temperature fitted on val rows over [0.05, 20], the table on test rows, and the claim audit.
set -euo pipefail
install -m 0644 /solution/calib/__init__.py /solution/calib/io.py /solution/calib/probs.py \
  /solution/calib/binning.py /solution/calib/metrics.py /solution/calib/temperature.py \
  /solution/calib/table.py /solution/calib/audit.py /app/calib/
install -m 0644 /solution/calibctl.py /app/calibctl.py
python3 /app/calibctl.py table /app/paper /app/paper/table.csv
python3 /app/calibctl.py audit /app/release /app/release/audit.csv
