#!/usr/bin/env bash
# Lossy shortcut: takes solar time as UTC plus 4 minutes per degree of longitude, leaving out the equation of time.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pvyield/solar.py"
s = open(p).read()
for old, new in [
    ('    tst = hour * 60.0 + 4.0 * longitude + equation_of_time(g)\n',
     '    tst = hour * 60.0 + 4.0 * longitude\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
