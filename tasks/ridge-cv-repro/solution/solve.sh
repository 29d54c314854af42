#!/usr/bin/env bash
# Oracle: the repaired ridgekit package (reader, grouped folds, per-fold preprocessing, unpenalised
# intercept, log grid, pooled RMSE, one-standard-error rule with its tie rule) and the audit command.
set -euo pipefail
mkdir -p /app/ridgekit
cp /solution/ridgekit/*.py /app/ridgekit/
cp /solution/ridgecv.py /app/ridgecv.py
