#!/usr/bin/env bash
# Off-by-one: takes the first day of the next month as a period's closing day, so it belongs to both months.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ledgerkit/periods.py"
s = open(p).read()
for old, new in [
    ('        return self.next.first_day - timedelta(days=1)\n',
     '        return self.next.first_day\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
