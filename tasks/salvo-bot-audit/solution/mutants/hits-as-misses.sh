#!/usr/bin/env bash
# Misread rule: per-ship counts rule out placements over known hits as well as misses.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/salvo/count.py'
s = open(p).read()
for old, new in [
    ('return [(name, len(placements(rules, shape, rules.miss))) for name, shape in rules.ships]',
     'return [(name, len(placements(rules, shape, rules.miss | rules.hit))) for name, shape in rules.ships]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
