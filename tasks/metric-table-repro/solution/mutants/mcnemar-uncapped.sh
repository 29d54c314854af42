#!/usr/bin/env bash
# Misread rule: the two-sided McNemar p-value is not capped at 1.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/significance.py"
s = open(p).read()
for old, new in [
    ('    return min(1.0, 2.0 * tail / 2.0 ** total)',
     '    return 2.0 * tail / 2.0 ** total'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
