#!/usr/bin/env bash
# Misread rule: re-runs and compares the metrics of logs with a forbidden feature too (the protocol leaves them unassessed).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/audit.py"
s = open(p).read()
for old, new in [
    ('        if not forbidden:\n            got = self.rerun',
     '        if True:\n            got = self.rerun'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
