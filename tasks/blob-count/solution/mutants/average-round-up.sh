#!/usr/bin/env bash
# Misread rule: the Average filter rounds (a + b) / 2 up instead of down.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/png.py"
s = open(p).read()
for old, new in [
    ('line[i] = (line[i] + (left + up) // 2) & 0xFF', 'line[i] = (line[i] + (left + up + 1) // 2) & 0xFF'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
