#!/usr/bin/env bash
# Lossy shortcut: a fleet placement counts when it covers at least one known hit, not every one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/salvo/count.py'
s = open(p).read()
for old, new in [
    ('if hits <= used:',
     'if not hits or hits & used:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
