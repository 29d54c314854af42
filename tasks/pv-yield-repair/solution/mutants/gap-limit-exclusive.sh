#!/usr/bin/env bash
# Off-by-one: fills only gaps shorter than 60 minutes, leaving a gap of exactly 60 minutes missing.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pvyield/model.py"
s = open(p).read()
for old, new in [
    ('(j - i) * step_min <= GAP_FILL_MAX_MIN', '(j - i) * step_min < GAP_FILL_MAX_MIN'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
