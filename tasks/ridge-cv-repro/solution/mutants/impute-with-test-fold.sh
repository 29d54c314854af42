#!/usr/bin/env bash
# Lossy shortcut: imputes and standardises with means over the whole data set, leaking the test fold.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgecv.py"
s = open(p).read()
for old, new in [
    ('            ok = [v for v in vals if v is not None]\n',
     '            ok = [v for v in (num(r[f]) for r in rows) if v is not None]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
