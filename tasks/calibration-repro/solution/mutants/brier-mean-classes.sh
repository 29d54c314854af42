#!/usr/bin/env bash
# Misread rule: averages the squared errors over the K classes (sum / K) instead of summing them.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/calib/metrics.py"
s = open(p).read()
for old, new in [
    ("for c in range(k)) for q, y in zip(p, rows.labels)) / n\n", "for c in range(k)) / k for q, y in zip(p, rows.labels)) / n\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
