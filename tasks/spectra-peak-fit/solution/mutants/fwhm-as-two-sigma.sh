#!/usr/bin/env bash
# Misread rule: parameterises the Gaussian with sigma = FWHM / 2 instead of FWHM / (2 sqrt(2 ln 2)), so fitted Gaussian widths and areas are 15% low.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PATCH'
p = "/app/specfit/peaks.py"
s = open(p).read()
for old, new in [
    ('    return -4.0 * LN2, w * w',
     '    sigma = w / 2.0\n    return -1.0, 2.0 * sigma * sigma'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PATCH
