#!/usr/bin/env bash
# Misread rule: every non-missing observation, flagged or not, becomes the spike test's reference.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/qc.py',
     '        if flag == VALID:\n            reference = (t, value)\n',
     '        reference = (t, value)\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
