#!/usr/bin/env bash
# Off-by-one: puts an invoice exactly 30 days overdue in the 31-60 bucket.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/reconcile.py"
s = open(p).read()
for old, new in [
    ('"1-30" if od <= 30',
     '"1-30" if od < 30'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
