#!/usr/bin/env bash
# Oracle: every statistic fitted on the training fold (imputer, selection, scaler), group k-fold
# by subject, model inputs limited to the protocol's f_ columns and missing tokens, and the
# run-log audit.
set -euo pipefail
install -m 0644 /solution/table.py /solution/folds.py /solution/pipeline.py /app/abl/
install -m 0644 /solution/audit.py /app/audit.py
