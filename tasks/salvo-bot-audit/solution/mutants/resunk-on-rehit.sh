#!/usr/bin/env bash
# Unhandled edge case: a shot at a cell of a ship already sunk announces the sinking again.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/salvo/fleet.py'
s = open(p).read()
for old, new in [
    ('if i not in self.sunk and cells <= self.fired:',
     'if cells <= self.fired:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
