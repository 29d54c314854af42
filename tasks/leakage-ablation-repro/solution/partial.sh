#!/usr/bin/env bash
# Honest partial: the pipeline repaired (the ablation table reproduces), but no audit of the
# submitted run logs.
set -euo pipefail
install -m 0644 /solution/table.py /solution/folds.py /solution/pipeline.py /app/abl/
