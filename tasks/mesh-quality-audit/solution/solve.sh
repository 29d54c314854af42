#!/usr/bin/env bash
# Oracle: the repaired readers (OFF comments, header counts and quads; MSH ids and tags), signed
# area, distance merge tolerance, boundary and component rules, and the driver with the audit;
# then the campaign's outputs.
set -euo pipefail
install -m 0644 /solution/meshio.py /solution/geometry.py /solution/topology.py /app/meshkit/
install -m 0644 /solution/meshtool.py /app/meshtool.py
python3 /app/meshtool.py /app/campaign /app/campaign/out
