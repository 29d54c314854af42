#!/usr/bin/env bash
# Misread rule: reads every activation energy as kJ/mol, ignoring the file's UNITS line.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kinetics/mechanism.py"
s = open(p).read()
for old, new in [
    ('def _energy_to_joules(value, unit):\n    unit = unit.lower()\n',
     'def _energy_to_joules(value, unit):\n    unit = "kj/mol"\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
