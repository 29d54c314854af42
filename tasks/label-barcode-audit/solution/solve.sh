#!/usr/bin/env bash
# Oracle: the repaired reader (every IDAT chunk joined, a per-row midpoint threshold, every row
# from the middle outward, each read both ways, the EAN-13 parity table as specified, Code 128
# check weights from 1, zero-padded set C pairs, switches that last, quiet zones on both sides),
# reconcile and audit by symbology and normalised code, then the shipment's reports.
set -euo pipefail
mkdir -p /app/scankit
for f in /solution/scankit/*.py; do install -m 0644 "$f" /app/scankit/; done
install -m 0644 /solution/labelscan.py /app/labelscan.py
python3 /app/labelscan.py reconcile /app/batch /app/batch/reconcile.json
python3 /app/labelscan.py audit /app/batch /app/batch/audit.json
