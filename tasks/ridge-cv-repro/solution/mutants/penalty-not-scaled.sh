#!/usr/bin/env bash
# Misread rule: adds lambda to the normal equations instead of n * lambda.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgecv.py"
s = open(p).read()
for old, new in [
    ('(n * lam if a == b else 0.0)',
     '(lam if a == b else 0.0)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
