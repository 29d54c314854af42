#!/usr/bin/env bash
set -euo pipefail
# Written with cat, not cp: a copy would keep the source's mode, and a read-only /solution
# would leave /app/heatwave.py read-only for the mutants' patches.
cat /solution/heatwave.py > /app/heatwave.py
