#!/usr/bin/env bash
# Off-by-one: the standard error uses the population standard deviation of the fold RMSEs (divide by K) instead of K - 1.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgekit/cv.py"
s = open(p).read()
for old, new in [
    ('/ (kk - 1)) if kk > 1 else 0.0',
     '/ kk) if kk > 1 else 0.0'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
