#!/usr/bin/env bash
# Off-by-one: uses the last rate strictly before the day, never a rate that takes effect that day.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ledgerkit/rates.py"
s = open(p).read()
for old, new in [
    ('        i = bisect.bisect_right(days, day)\n',
     '        i = bisect.bisect_left(days, day)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
