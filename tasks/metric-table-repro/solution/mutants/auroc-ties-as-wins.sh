#!/usr/bin/env bash
# Misread rule: gives tied scores the top rank of their group, so a tie counts as a win instead of 1/2.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/repro.py"
s = open(p).read()
for old, new in [
    ('        avg = (i + 1 + j) / 2.0\n',
     '        avg = float(j)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
