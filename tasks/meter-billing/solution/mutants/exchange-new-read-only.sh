#!/usr/bin/env bash
# Edge case: a meter exchange keeps only the new register's first read (X), so the interval before it ends on the wrong register.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ("            out[-1] = (ts, out[-1][1], wh)\n", "            out[-1] = (ts, wh, wh)\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
