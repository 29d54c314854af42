#!/usr/bin/env bash
# Unhandled edge case: shots fired after the game was won are not reported (only the wrong player's are).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/salvo/audit.py'
s = open(p).read()
for old, new in [
    ('if game.over() or player != game.to_move:\n                found',
     'if game.over():\n                pending = None\n                continue\n            if player != game.to_move:\n                found'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
