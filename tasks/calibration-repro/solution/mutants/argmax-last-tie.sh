#!/usr/bin/env bash
# Misread rule: breaks ties for the prediction by the largest class index instead of the smallest.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/calib/probs.py"
s = open(p).read()
for old, new in [
    ("        if p[k] > p[best]:\n", "        if p[k] >= p[best]:\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
