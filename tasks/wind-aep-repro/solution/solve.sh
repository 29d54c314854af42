#!/usr/bin/env bash
# Oracle: the repaired windkit package (kelvin, speed normalised with exponent 1/3, hub-height pressure,
# bins centred on multiples of 0.5, single-bin gaps filled, BORA period-end stamps and the fall-back hour,
# MW exports, curtailed and stuck-anemometer records left out, Weibull scale through the gamma function,
# the tail held to cut-out, maintenance excluded from availability) and the new audit command.
set -euo pipefail
mkdir -p /app/windkit
cp /solution/windkit/*.py /app/windkit/
cp /solution/windpc.py /app/windpc.py
