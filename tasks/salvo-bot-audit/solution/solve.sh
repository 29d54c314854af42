#!/usr/bin/env bash
# Oracle: the repaired salvo package (two-digit rows, quarter turns that rotate, mirror images, the
# board read as columns x rows, the last column, both diagonal neighbours above, every hit covered,
# a sunk ship announced once, salvo size from the shooter's own fleet, NOTE lines skipped), a
# placement-density hunter for `play`, and the new `audit` command.
set -euo pipefail
mkdir -p /app/salvo
cp /solution/salvo/*.py /app/salvo/
cp /solution/salvo.py /app/salvo.py
# Byte-compile the package now: the grader runs salvo.py with /app read-only, where Python would
# otherwise compile its modules again on each of its runs. checked-hash pycs are checked against
# the source's hash on import, so a later edit of a module (a mutant's patch, even one of the
# same size within the same second) is compiled afresh instead of running stale code.
python3 -m compileall -q --invalidation-mode checked-hash /app/salvo >/dev/null || true
