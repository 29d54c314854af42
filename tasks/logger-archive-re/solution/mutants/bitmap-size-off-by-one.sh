#!/usr/bin/env bash
# Off-by-one: sizes each presence bitmap as n // 8 + 1 bytes, one byte too many when a block holds a multiple of 8 readings.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kla.py"
s = open(p).read()
for old, new in [
    ('bits = r.take((n + 7) // 8)',
     'bits = r.take(n // 8 + 1)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
