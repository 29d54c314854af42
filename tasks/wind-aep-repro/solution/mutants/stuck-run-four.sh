#!/usr/bin/env bash
# Misread rule: a frozen-anemometer run needs four equal speeds, not three.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/filters.py"
s = open(p).read()
for old, new in [
    ('STUCK_RUN = 3\n',
     'STUCK_RUN = 4\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
