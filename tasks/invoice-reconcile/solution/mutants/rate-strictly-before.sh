#!/usr/bin/env bash
# Off-by-one: converts with the last rate strictly before the date, never the same day's rate.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/reconcile.py"
s = open(p).read()
for old, new in [
    ('            if dd <= d:\n',
     '            if dd < d:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
