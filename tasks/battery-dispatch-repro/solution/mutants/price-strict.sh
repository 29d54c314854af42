#!/usr/bin/env bash
# Off-by-one: charges only when the price is strictly below the threshold, skipping intervals priced exactly at it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/policy.py'
s = open(p).read()
for old, new in [
    ('        elif iv.price <= policy.charge_price_max:\n',
     '        elif iv.price < policy.charge_price_max:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
