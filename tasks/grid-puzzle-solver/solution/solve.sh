#!/usr/bin/env bash
# Oracle: the repaired gridkit package (last cage kept at the end of a file, box read as height
# then width, region maps read row by row, 'greater' reversed, cage digits distinct, cage bounds
# with the largest free digits, signs checked from both cells, strict thermometers, the search
# branching in reading order and counting to two) and the new audit command.
set -euo pipefail
mkdir -p /app/gridkit
cp /solution/gridkit/*.py /app/gridkit/
cp /solution/solver.py /app/solver.py
