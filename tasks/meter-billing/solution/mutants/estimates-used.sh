#!/usr/bin/env bash
# Misread rule: uses estimated reads (flag E) as if they were actual reads.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ("        if flag == \"E\":\n            continue\n        if flag == \"X\"", "        if flag == \"X\""),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
