#!/usr/bin/env bash
# Honest partial: the PNG reader, the foreground rule and the colony rules repaired (sections 1-3),
# but the batch report still adds edge colonies to the CFU and there is no audit command.
set -euo pipefail
mkdir -p /app/colony
cp /solution/blobs.py /app/blobs.py
for m in __init__ png pixels label measure; do
  cp "/solution/colony/$m.py" "/app/colony/$m.py"
done
