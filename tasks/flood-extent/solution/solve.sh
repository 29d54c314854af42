#!/usr/bin/env bash
# Oracle: the repaired package (PNG filters and split IDAT, band order from the index, pixel
# centres and the y axis, holes and multi-polygons, NDWI, QA bits) with the flood and audit commands.
set -euo pipefail
mkdir -p /app/floodkit
for f in /solution/floodkit/*.py; do install -m 0644 "$f" /app/floodkit/; done
install -m 0644 /solution/floodctl.py /app/floodctl.py
