#!/usr/bin/env bash
# Off-by-one: a date without a rate row takes the next row's rate instead of the last earlier one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/arrecon/fx.py"
s = open(p).read()
for old, new in [
    ('        i = bisect.bisect_right(days, day) - 1\n        if i < 0:\n', '        i = min(bisect.bisect_left(days, day), len(days) - 1)\n        if i < 0:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
