#!/usr/bin/env bash
# Misread rule: a shot out of turn is reported but still counts: its cells are shot and the turn passes.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/salvo/audit.py'
s = open(p).read()
for old, new in [
    ('                found.append((e.lineno, "OUT_OF_TURN"))\n                pending = None\n                continue',
     '                found.append((e.lineno, "OUT_OF_TURN"))\n                if not game.over():\n                    game.fire(player, cells)\n                pending = None\n                continue'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
