#!/usr/bin/env bash
# Oracle: the repaired package (PGM header comments, 16-bit and ASCII samples, dark before flat,
# saturation at the file's maxval, the 4-neighbour Laplacian, 10th-percentile tile backgrounds,
# overlap-normalised registration with the SOP's sign between consecutive passing frames, counts in
# the common field of view) and the audit of the previous report.
set -euo pipefail
mkdir -p /app/scopekit
for f in /solution/scopekit/*.py; do install -m 0644 "$f" /app/scopekit/; done
install -m 0644 /solution/tlqc.py /app/tlqc.py
