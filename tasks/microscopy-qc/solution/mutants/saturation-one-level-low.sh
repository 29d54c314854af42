#!/usr/bin/env bash
# Off-by-one: counts a pixel as saturated from maxval - 1 up, one grey level below full scale.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/scopekit/metrics.py"
s = open(p).read()
for old, new in [
    ('    return sum(1 for r in raw for v in r if v >= maxval) / n\n',
     '    return sum(1 for r in raw for v in r if v >= maxval - 1) / n\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
