#!/usr/bin/env bash
# Oracle: the repaired ridgekit package (reader, grouped folds, per-fold preprocessing, unpenalised
# intercept, log grid, pooled RMSE, one-standard-error rule with its tie rule) and the audit command.
set -euo pipefail
mkdir -p /app/ridgekit
cp /solution/ridgekit/*.py /app/ridgekit/
cp /solution/ridgecv.py /app/ridgecv.py
# Byte-compile the package now: the grader runs ridgecv.py with /app read-only, where Python would
# otherwise compile its modules again on each of its runs. checked-hash pycs are checked against
# the source's hash on import, so a later edit of a module (a mutant's patch, even one of the
# same size within the same second) is compiled afresh instead of running stale code.
python3 -m compileall -q --invalidation-mode checked-hash /app/ridgekit >/dev/null || true
