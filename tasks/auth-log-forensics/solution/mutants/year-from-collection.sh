#!/usr/bin/env bash
# Misread rule: gives every classic syslog line the collection date's year, so December lines of a January collection land in the future.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/irkit/stamps.py"
s = open(p).read()
for old, new in [
    ('        if (mon, day, h, mi, s) > self.limit[1:]:\n            y -= 1\n', ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
