#!/usr/bin/env bash
# Oracle: the repaired salvo package (two-digit rows, quarter turns that rotate, mirror images, the
# board read as columns x rows, the last column, both diagonal neighbours above, every hit covered,
# a sunk ship announced once, salvo size from the shooter's own fleet, NOTE lines skipped), a
# placement-density hunter for `play`, and the new `audit` command.
set -euo pipefail
mkdir -p /app/salvo
cp /solution/salvo/*.py /app/salvo/
cp /solution/salvo.py /app/salvo.py
