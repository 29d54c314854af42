#!/usr/bin/env bash
# Misread rule: reads 'box A B' as A columns by B rows, right only for square boxes.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gridkit/parser.py"
s = open(p).read()
for old, new in [
    ('            box = (int(toks[1]), int(toks[2]))',
     '            box = (int(toks[2]), int(toks[1]))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
