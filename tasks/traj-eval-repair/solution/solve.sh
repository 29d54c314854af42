#!/usr/bin/env bash
# Oracle: the repaired toolkit (quaternion order, association, alignment, RPE over a time delta,
# angle clamp) and the driver with run-level offsets, monocular-only scale and the audit.
set -euo pipefail
cp /solution/trajio.py /solution/geometry.py /solution/linalg.py /solution/associate.py \
   /solution/align.py /solution/metrics.py /app/trajkit/
cp /solution/evaluate.py /app/evaluate.py
