#!/usr/bin/env bash
# Unhandled edge case: still applies the calibration-range test to a row whose fit is poor (FIT), where the ratio cannot be trusted.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PATCH'
p = "/app/runbatch.py"
s = open(p).read()
for old, new in [
    ('            if fits[a]["r2"] < min_r2 or fits[istd]["r2"] < min_r2:\n                codes.append("FIT")\n            else:\n                lo_hi = calibration_line(analytes[a]["standards"])\n                if not lo_hi[2] <= ratio <= lo_hi[3]:\n                    codes.append("RANGE")',
     '            lo_hi = calibration_line(analytes[a]["standards"])\n            if not lo_hi[2] <= ratio <= lo_hi[3]:\n                codes.append("RANGE")\n            if fits[a]["r2"] < min_r2 or fits[istd]["r2"] < min_r2:\n                codes.append("FIT")\n            else:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PATCH
