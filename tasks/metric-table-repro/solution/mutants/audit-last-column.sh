#!/usr/bin/env bash
# Misread rule: the audit reports the last wrong column of a row instead of the first.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/audit.py"
s = open(p).read()
for old, new in [
    ('    for column in CHECKED:\n',
     '    for column in reversed(CHECKED):\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
