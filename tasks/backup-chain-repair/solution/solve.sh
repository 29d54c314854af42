#!/usr/bin/env bash
# Oracle: the repaired snapkit package (chunk ends after the boundary byte, the final chunk kept at
# the maximum size, unchanged files by size and mtime, links stored not followed, the effective
# index by highest seq, empty files and directories restored with their modes, ISO week-years,
# the newest snapshot of each month, periods in the repository's offset, diffs that see modes) and
# the new audit command.
set -euo pipefail
mkdir -p /app/snapkit
cp /solution/snapkit/*.py /app/snapkit/
cp /solution/snap.py /app/snap.py
