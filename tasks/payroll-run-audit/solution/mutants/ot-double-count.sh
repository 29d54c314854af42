#!/usr/bin/env bash
# Misread rule: weekly overtime counts all hours of the week above 40, so hours already paid as daily overtime are counted again.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/payroll/hours.py"
s = open(p).read()
for old, new in [
    ('        straight_week[period.week_of(day)] += worked - daily_ot\n', '        straight_week[period.week_of(day)] += worked\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
