#!/usr/bin/env bash
# Misread rule: a notice period of N Business Days is counted as N calendar days before the reference date.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/leasekit.py"
s = open(p).read()
for old, new, n in [
    ('    d = ref\n    for _ in range(n):\n', '    return ref - dt.timedelta(days=n)\n    d = ref\n    for _ in range(n):\n', 1),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == n, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
