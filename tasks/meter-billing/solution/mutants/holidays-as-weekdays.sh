#!/usr/bin/env bash
# Misread rule: a holiday keeps its weekday's day type instead of hol.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ("    return \"hol\" if day in holidays else WEEKDAYS[day.weekday()]", "    return WEEKDAYS[day.weekday()]"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
