#!/usr/bin/env bash
# Off-by-one: takes the term date as the first day no longer employed, so the last working day is neither prorated nor its shifts paid.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/payroll/periods.py"
s = open(p).read()
for old, new in [
    ('    last = min(term, period.end) if term else period.end\n', '    last = min(term - timedelta(days=1), period.end) if term else period.end\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
