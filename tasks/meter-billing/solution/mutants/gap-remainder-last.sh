#!/usr/bin/env bash
# Off-by-one: a gap's remainder Wh go to its last slots instead of its first.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ("each + (1 if i < extra else 0)", "each + (1 if i >= k - extra else 0)"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
