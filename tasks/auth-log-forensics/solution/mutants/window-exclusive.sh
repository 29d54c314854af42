#!/usr/bin/env bash
# Off-by-one: a failure exactly W minutes before the success falls outside the brute-force window.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/irkit/alerts.py"
s = open(p).read()
for old, new in [
    ('            while q and q[0][0] < e.t - window:', '            while q and q[0][0] <= e.t - window:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
