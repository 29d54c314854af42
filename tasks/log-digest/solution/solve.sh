#!/usr/bin/env bash
# Oracle: the repaired digest package (rotated names, exclude patterns on the bundle path, duplicates
# by unwrapped content, whole stack traces skipped, '-' byte counts, microsecond durations, epoch
# milliseconds, the access-log offset sign, upper-case hex ids, case-blind bot words, nearest-rank
# percentiles, half-up rates) and the new audit command.
set -euo pipefail
mkdir -p /app/digest
cp /solution/digest/*.py /app/digest/
cp /solution/logdigest.py /app/logdigest.py
