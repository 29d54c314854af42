#!/usr/bin/env bash
# Off-by-year: weekly periods pair the ISO week number with the calendar year, splitting ISO weeks that straddle a new year.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snapkit/retention.py"
s = open(p).read()
for old, new in [
    ('        return "%04d-W%02d" % (year, week)',
     '        return "%04d-W%02d" % (local.year, week)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
