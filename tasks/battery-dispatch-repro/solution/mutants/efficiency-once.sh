#!/usr/bin/env bash
# Misread rule: books the whole round-trip efficiency on charge and none on discharge instead of its square root each way.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/battery.py'
s = open(p).read()
for old, new in [
    ('        self.eta_charge = math.sqrt(rte)\n        self.eta_discharge = math.sqrt(rte)\n',
     '        self.eta_charge = rte\n        self.eta_discharge = 1.0\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
