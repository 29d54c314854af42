#!/usr/bin/env bash
# Off-by-one: standardises with the sample standard deviation (n - 1) instead of the population one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgecv.py"
s = open(p).read()
for old, new in [
    ('sd = math.sqrt(sum((v - mean) ** 2 for v in imp) / len(imp))',
     'sd = math.sqrt(sum((v - mean) ** 2 for v in imp) / (len(imp) - 1))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
