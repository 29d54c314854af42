#!/usr/bin/env bash
# Misread rule: block thresholds are applied in full to each tariff version's segment instead of pro-rated by its share of the period's days.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ("            cap = round(Fraction(upto) * 1000 * seg_days / period_days)", "            cap = int(upto * 1000)"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
