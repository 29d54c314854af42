#!/usr/bin/env bash
# Honest partial: stages 1 and 2 only. The specfit package is repaired, so peaks.csv and
# report.csv are right, but the audit of the previous report was never written: no audit.csv.
set -euo pipefail
cp /solution/specfit/__init__.py /solution/specfit/readers.py /solution/specfit/linalg.py \
   /solution/specfit/baseline.py /solution/specfit/peaks.py /solution/specfit/quant.py /app/specfit/
