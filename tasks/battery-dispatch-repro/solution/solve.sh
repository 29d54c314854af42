#!/usr/bin/env bash
# Oracle: the repaired battsim package (load units, period-end labels, offsets and the repeated
# fall-back hour, the efficiency split as sqrt each way, the SoC floor in kW, charging capped at
# the target, SoC after the interval, demand on the 15-minute peak, local billing months,
# storage-side throughput over the usable window, one continuous study run) and the command line
# /app/battctl.py with the new audit command.
set -euo pipefail
mkdir -p /app/battsim
for f in /solution/*.py; do
  [ "$(basename "$f")" = battctl.py ] || install -m 0644 "$f" /app/battsim/
done
install -m 0644 /solution/battctl.py /app/battctl.py
