#!/usr/bin/env bash
# Misread rule: checks each logged SoC against the SoC expected from the previous expected value instead of the previous logged one, so one bad interval flags every later one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/audit.py'
s = open(p).read()
for old, new in [
    ('        prev = soc\n',
     '        prev = bat.expected_energy(prev, c, d, DT_H)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
