#!/usr/bin/env bash
# Oracle: the repaired package (parser, rate constants, reverse steps, error norm) and the
# extended driver (onset times, element-balance audit).
set -euo pipefail
cp /solution/mechanism.py /solution/rates.py /solution/integrate.py /app/kinetics/
cp /solution/rxsim.py /app/rxsim.py
