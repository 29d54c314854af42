#!/usr/bin/env bash
# Oracle: the repaired colony package, the batch and audit commands, and the shipped work done.
set -euo pipefail
# No bytecode caches: a same-size patch made within the same second would be masked by a stale .pyc.
export PYTHONDONTWRITEBYTECODE=1
rm -rf /app/colony
cp -r /solution/colony /app/colony
cp /solution/blobs.py /app/blobs.py
mkdir -p /app/out
python3 /app/blobs.py batch /app/plates/batch-1127 /app/out/batch-1127.csv
python3 /app/blobs.py audit /app/plates/batch-1120 /app/plates/batch-1120/manual.csv /app/out/audit-1120.csv
