#!/usr/bin/env bash
# Misread rule: the salvo size is the opponent's ships afloat, not the shooter's own.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/salvo/game.py'
s = open(p).read()
for old, new in [
    ('return self.fleets[player].afloat()',
     'return self.fleets[self.other(player)].afloat()'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
