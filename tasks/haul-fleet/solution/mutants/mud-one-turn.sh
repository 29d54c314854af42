#!/usr/bin/env bash
# Misread rule: plans a step into mud as one turn, as on ground (the engine keeps the truck busy two more turns).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bot.py"
s = open(p).read()
for old, new in [
    ('MUD_TURNS = 3',
     'MUD_TURNS = 1'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
