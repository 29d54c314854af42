#!/usr/bin/env bash
# Misread rule: a missing prediction gets probability 0 instead of 0.5.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/ranking.py"
s = open(p).read()
for old, new in [
    ('MISSING_SCORE = 0.5',
     'MISSING_SCORE = 0.0'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
