#!/usr/bin/env bash
# Off-by-one: a term of N years from C is taken to expire on the N-th anniversary itself, not the day before.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/leasekit.py"
s = open(p).read()
for old, new, n in [
    ('int(m.group(2) or 0)) - dt.timedelta(days=1)', 'int(m.group(2) or 0))', 3),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == n, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
