#!/usr/bin/env bash
# Edge case: a band whose window crosses midnight (from > to) never matches, so night hours fall to later bands or the default.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ("        inside = (lo <= t < hi) if lo < hi else (t >= lo or t < hi)", "        inside = lo <= t < hi"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
