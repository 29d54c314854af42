#!/usr/bin/env bash
# Oracle: the repaired colony package, the batch and audit commands, and the shipped work done.
set -euo pipefail
rm -rf /app/colony
cp -r /solution/colony /app/colony
cp /solution/blobs.py /app/blobs.py
mkdir -p /app/out
python3 /app/blobs.py batch /app/plates/batch-1127 /app/out/batch-1127.csv
python3 /app/blobs.py audit /app/plates/batch-1120 /app/plates/batch-1120/manual.csv /app/out/audit-1120.csv
