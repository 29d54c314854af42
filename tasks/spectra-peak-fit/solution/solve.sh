#!/usr/bin/env bash
# Oracle: the repaired specfit package (reader axis order, PAC rows, single YFACTOR, windows in
# axis units, Gaussian FWHM, pseudo-Voigt area weights, extrapolation by the ratio range) and the
# driver with the audit of a previous report.
set -euo pipefail
cp /solution/specfit/__init__.py /solution/specfit/readers.py /solution/specfit/linalg.py \
   /solution/specfit/baseline.py /solution/specfit/peaks.py /solution/specfit/quant.py /app/specfit/
cp /solution/runbatch.py /app/runbatch.py
