#!/usr/bin/env bash
# Misread rule: numbers subjects in order of first appearance in the release instead of sorted string order.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgekit/folds.py"
s = open(p).read()
for old, new in [
    ('    subjects = sorted({r[subject].strip() for r in rows})\n',
     '    subjects = list(dict.fromkeys(r[subject].strip() for r in rows))\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
