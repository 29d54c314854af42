#!/usr/bin/env bash
# Misread rule: numbers the subjects in sorted id order instead of order of first appearance when dealing them to folds.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/abl/folds.py"
s = open(p).read()
for old, new in [
    ('    for g in groups:\n        if g not in order:',
     '    for g in sorted(groups):\n        if g not in order:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
