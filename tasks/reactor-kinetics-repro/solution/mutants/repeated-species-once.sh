#!/usr/bin/env bash
# Unhandled edge case: a species repeated on one side (A + A) counts once instead of adding up to 2 A.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kinetics/mechanism.py"
s = open(p).read()
for old, new in [
    ('        side[name] = side.get(name, 0) + coef\n',
     '        side[name] = coef\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
