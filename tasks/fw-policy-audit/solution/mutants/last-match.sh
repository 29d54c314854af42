#!/usr/bin/env bash
# Misread rule: the last matching rule decides instead of the first (rules walked from the highest number down).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fwaudit/config.py"
s = open(p).read()
for old, new in [
    ('        rules.sort(key=lambda r: r.seq)\n',
     '        rules.sort(key=lambda r: -r.seq)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
