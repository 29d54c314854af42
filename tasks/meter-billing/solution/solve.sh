#!/usr/bin/env bash
# Oracle: the repaired meterbill package as one self-contained entry point (register reads with
# rollovers, exchanges, estimates and gap spreading; local time through zoneinfo; first-match bands
# across midnight and holidays; tariff versions by local date; pro-rated blocks; half-even cents;
# VAT on net charges before the export credit) and the new audit command.
set -euo pipefail
cp /solution/bill.py /app/bill.py
