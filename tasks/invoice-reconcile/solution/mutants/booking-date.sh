#!/usr/bin/env bash
# Misread rule: takes a Nordbank row's booking date as the payment date instead of its value date.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/arrecon/statements.py"
s = open(p).read()
for old, new in [
    ('"date": _dmy(r["value_date"])', '"date": _dmy(r["booking_date"])'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
