#!/usr/bin/env bash
# Misread rule: assigns intervals to billing months (and their demand targets) by UTC date instead of the local date of the interval's start.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/timeseries.py'
s = open(p).read()
for old, new in [
    ('        self.month = start.strftime("%Y-%m")',
     '        self.month = self.key[:7]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
