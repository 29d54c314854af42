#!/usr/bin/env bash
# Unhandled edge case: night hours are looked for only in the shift day's own 00:00-06:00 and 22:00-24:00, so the part of a shift after midnight is lost.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/payroll/hours.py"
s = open(p).read()
for old, new in [
    ('    while day * 1440 < e:\n', '    while day * 1440 < min(e, 1440):\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
