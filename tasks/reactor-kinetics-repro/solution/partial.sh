#!/usr/bin/env bash
# Honest partial: the package repaired (concentrations right), but the driver is not extended:
# no events.csv and no conservation.csv.
set -euo pipefail
cp /solution/mechanism.py /solution/rates.py /solution/integrate.py /app/kinetics/
