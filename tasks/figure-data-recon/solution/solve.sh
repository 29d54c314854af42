#!/usr/bin/env bash
# Oracle: the repaired digitizer (exact glyph matching at scale 1 or 2, y labels paired with their
# own ticks, log axes detected from the labels, colour tolerance against the swatch's mean colour,
# the legend box excluded, the middle of each clean column run of a curve, bar values at the bar's
# top row), the table's six requests and the audit, then the manuscript's results and audit.
set -euo pipefail
mkdir -p /app/figkit
for f in /solution/figkit/*.py; do install -m 0644 "$f" /app/figkit/; done
install -m 0644 /solution/digitize.py /app/digitize.py
python3 /app/digitize.py table /app/paper /app/paper/results.json
python3 /app/digitize.py audit /app/paper /app/paper/audit.json
