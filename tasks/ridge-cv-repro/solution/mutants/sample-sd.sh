#!/usr/bin/env bash
# Misread rule: standardises with the sample standard deviation (n - 1) instead of the population one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgekit/prep.py"
s = open(p).read()
for old, new in [
    ('/ n)\n',
     '/ (n - 1))\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
