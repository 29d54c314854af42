#!/usr/bin/env bash
# Oracle: the repaired pvyield package (solar time and UTC conversion, incidence angle in radians,
# temperature coefficient sign, AC clipping after the inverter, period-end labels, missing values
# and the 60-minute gap rule, local months and specific yield per kWp) and the command line
# /app/pvctl.py with the new audit command.
set -euo pipefail
mkdir -p /app/pvyield
for f in /solution/*.py; do
  [ "$(basename "$f")" = pvctl.py ] || install -m 0644 "$f" /app/pvyield/
done
install -m 0644 /solution/pvctl.py /app/pvctl.py
