#!/usr/bin/env bash
# Misread rule: takes before A B as non-strict, so A and B may share a slot.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/cnfkit/puzzle.py"
s = open(p).read()
for old, new in [
    ('            for sb in p.slots[: i + 1]:', '            for sb in p.slots[:i]:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
