#!/usr/bin/env bash
# Honest partial: stages 1 and 2 only. The meshkit modules are repaired, so report.csv is right
# (the campaign's report too), but the audit was never written: no audit.csv.
set -euo pipefail
install -m 0644 /solution/meshio.py /solution/geometry.py /solution/topology.py /app/meshkit/
python3 /app/meshtool.py /app/campaign /app/campaign/out
