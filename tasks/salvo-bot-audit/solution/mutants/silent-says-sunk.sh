#!/usr/bin/env bash
# Misread rule: sunk = silent still calls the sinking shot `sunk` (it must be called `hit`).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/salvo/fleet.py'
s = open(p).read()
for old, new in [
    ('if not newly or self.rules.sunk == "silent":',
     'if not newly:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
