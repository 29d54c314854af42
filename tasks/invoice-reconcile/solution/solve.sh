#!/usr/bin/env bash
# Oracle: the repaired arrecon package (value dates, multi-line references, unpadded invoice
# numbers, legal forms with a dot, weekend rates, allocation order, partial payments in the invoice
# currency, aging boundaries) and the new audit command.
set -euo pipefail
mkdir -p /app/arrecon
cp /solution/arrecon/*.py /app/arrecon/
cp /solution/arclose.py /app/arclose.py
