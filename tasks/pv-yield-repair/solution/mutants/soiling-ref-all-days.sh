#!/usr/bin/env bash
# Misread rule: takes the soiling reference PR as the median over every clean day of the log instead of the clean days of its first 14 days.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pvyield/audit.py"
s = open(p).read()
for old, new in [
    ('    ref = [mt / et for day, et, mt in clean if (day - days[0]).days < REF_DAYS]',
     '    ref = [mt / et for day, et, mt in clean]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
