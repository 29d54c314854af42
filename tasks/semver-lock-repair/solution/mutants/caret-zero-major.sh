#!/usr/bin/env bash
# Misread rule: reads a caret on 0.x like one on 1.x (^0.2.3 as >=0.2.3 <1.0.0).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pkgsolve/ranges.py"
s = open(p).read()
for old, new in [
    ('    if M > 0 or m is None:\n        hi = _v(M + 1)\n    elif m > 0 or p is None:\n        hi = _v(0, m + 1)\n    else:\n        hi = _v(0, 0, p + 1)\n', '    hi = _v(M + 1)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
