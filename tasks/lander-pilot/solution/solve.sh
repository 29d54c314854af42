#!/usr/bin/env bash
# Oracle: the repaired flight package (answers keyed "angle", the first fix only from a complete
# observation, the wind innovation measured minus predicted, the wind clamp both ways, the cruise
# descent up to 9 m/s, the log reader keeping the last record when there is no end record) and the
# new audit command; then the audit of the shipped logs.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
mkdir -p /app/flight /app/reports
cp /solution/flight/*.py /app/flight/
cp /solution/pilot.py /app/pilot.py
python3 -B /app/pilot.py audit /app/logs /app/reports/flight-audit.csv
