#!/usr/bin/env bash
# Lossy shortcut: bills each reading interval whole at its midpoint's band and day instead of splitting it at midnights and band boundaries.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ('    return [a] + sorted(pts) + [b]\n',
     '    return [a, b]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
