#!/usr/bin/env bash
# Misread rule: an amendment signed before the term commences is treated as not yet in force and skipped.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/leasekit.py"
s = open(p).read()
for old, new, n in [
    ('        docs.append(A["file"])\n',
     '        if A["date"] < L["comm"]:\n            continue\n        docs.append(A["file"])\n', 1),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == n, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
