#!/usr/bin/env bash
# Unhandled edge case: scores a model only on the examples it predicted; a missing prediction should count as wrong.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/repro.py"
s = open(p).read()
for old, new in [
    ('            n = len(ids)\n',
     '            n = len([i for i in ids if i in m])\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
