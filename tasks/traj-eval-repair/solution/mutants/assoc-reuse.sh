#!/usr/bin/env bash
# Lossy shortcut: pairs every estimate stamp with its nearest ground-truth stamp within tolerance, letting two estimate poses share one ground-truth pose.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/trajkit/associate.py"
s = open(p).read()
for old, new in [
    ('        if i in used_e or j in used_g:\n',
     '        if i in used_e:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
