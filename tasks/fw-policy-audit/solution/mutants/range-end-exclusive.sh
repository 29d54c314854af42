#!/usr/bin/env bash
# Off-by-one: reads a port range a-b as half-open, so its last port b is not matched.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fwaudit/addr.py"
s = open(p).read()
for old, new in [
    ('    hi = int(hi) if hi else lo\n',
     '    hi = int(hi) - 1 if hi else lo\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
