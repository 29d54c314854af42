#!/usr/bin/env bash
# Misread rule: takes every pixel darker than the paper (< 230) as ink, so the faint ruled-paper guide lines join the print.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/recover.py"
s = open(p).read()
for old, new in [
    ('INK = 128\n',
     'INK = 230\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
