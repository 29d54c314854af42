#!/usr/bin/env bash
# Off-by-one: plans a step into mud as two turns instead of three (one busy turn, not two).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bot.py"
s = open(p).read()
for old, new in [
    ('MUD_TURNS = 3',
     'MUD_TURNS = 2'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
