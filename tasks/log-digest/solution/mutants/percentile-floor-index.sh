#!/usr/bin/env bash
# Misread rule: takes the percentile at index floor(p·n) instead of the nearest rank ceil(p·n).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/logdigest.py"
s = open(p).read()
for old, new in [
    ('pr = lambda p: round(lats[max(0, math.ceil(p / 100.0 * n) - 1)], 3)',
     'pr = lambda p: round(lats[min(n - 1, int(p / 100.0 * n))], 3)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
