#!/usr/bin/env bash
# Oracle: the repaired qckit package (kelvin offset, negative offsets with minutes, the -999.9 token,
# TOA5 clocks from stations.csv, first-read duplicates, spike reference only from valid values,
# persistence over five preceding values, two-sided climatology test, completeness on valid values,
# min/max over valid values, monthly mean over complete days), the fixed entry point and `audit`.
set -euo pipefail
mkdir -p /app/qckit
cp /solution/qckit/*.py /app/qckit/
cp /solution/stationqc.py /app/stationqc.py
