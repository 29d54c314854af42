#!/usr/bin/env bash
# Misread rule: rotate = mirror allows only the quarter turns, as rotate = yes (mirror images refused).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/salvo/shapes.py'
s = open(p).read()
for old, new in [
    ('starts = [base, mirror(base)] if mode == "mirror" else [base]',
     'starts = [base]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
