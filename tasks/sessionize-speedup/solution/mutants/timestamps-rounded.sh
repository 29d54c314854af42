#!/usr/bin/env bash
# Misread rule: rounds fractional timestamps where the legacy program truncates them.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fast_sessionize.py"
s = open(p).read()
for old, new in [
    ('int(float(row["ts"]))',
     'round(float(row["ts"]))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
