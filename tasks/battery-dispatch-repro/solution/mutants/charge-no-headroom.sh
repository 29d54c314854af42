#!/usr/bin/env bash
# Misread rule: charges at the full available power even when that lifts the site's demand above the month's target.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/policy.py'
s = open(p).read()
for old, new in [
    ('            charge = min(target - iv.load_kw, battery.max_charge_kw(DT_H))\n',
     '            charge = battery.max_charge_kw(DT_H)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
