#!/usr/bin/env bash
# Oracle: the repaired orbitkit package (civil day, time-unit direction, hyperbolic Stumpff S, period,
# signed time of flight, f-dot, circular-orbit rule, unbound period and passage, leap-second table and
# 23:59:60 epochs, passage times from the window start) and the audit command.
set -euo pipefail
mkdir -p /app/orbitkit
cp /solution/orbitkit/*.py /app/orbitkit/
cp /solution/propagate.py /app/propagate.py
