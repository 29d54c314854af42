#!/usr/bin/env bash
# Edge case: a probability on a bin edge (0.3) goes to the lower bin.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/calibration.py"
s = open(p).read()
for old, new in [
    ('    if b + 1 < BINS and p >= (b + 1) / BINS:\n        b += 1\n    return b',
     '    if b > 0 and p <= b / BINS:\n        b -= 1\n    return b'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
