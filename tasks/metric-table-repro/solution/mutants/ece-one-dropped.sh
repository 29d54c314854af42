#!/usr/bin/env bash
# Off-by-one: a probability of exactly 1 falls in an eleventh bin that is never counted.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/calibration.py"
s = open(p).read()
for old, new in [
    ('    if b >= BINS:\n        b = BINS - 1\n',
     ''),
    ('    for members in bins.values():\n',
     '    for key, members in bins.items():\n        if key >= BINS:\n            continue\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
