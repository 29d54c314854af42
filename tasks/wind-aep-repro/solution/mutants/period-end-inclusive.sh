#!/usr/bin/env bash
# Off-by-one: records starting exactly at the period end are kept (the period is half-open).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/site.py"
s = open(p).read()
for old, new in [
    ('        return self.start <= start < self.end\n',
     '        return self.start <= start <= self.end\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
