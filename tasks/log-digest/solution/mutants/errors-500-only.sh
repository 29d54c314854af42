#!/usr/bin/env bash
# Misread rule: counts only status 500 as an error, not every 5xx.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/logdigest.py"
s = open(p).read()
for old, new in [
    ('err = sum(1 for x in rs if x["status"] >= 500)',
     'err = sum(1 for x in rs if x["status"] == 500)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
