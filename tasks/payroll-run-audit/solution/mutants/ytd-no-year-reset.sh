#!/usr/bin/env bash
# Unhandled edge case: uses the year-to-date figures of ytd.csv whatever their year, so a January pay date carries last year's pension and totals.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/payroll/deductions.py"
s = open(p).read()
for old, new in [
    ('    same_year = row.get("year") and int(row["year"]) == period.pay_date.year\n', '    same_year = bool(row.get("year"))\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
