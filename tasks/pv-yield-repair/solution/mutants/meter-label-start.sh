#!/usr/bin/env bash
# Misread rule: reads the meter's period-end stamps as period starts, so every metered hour lands one hour late.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pvyield/audit.py"
s = open(p).read()
for old, new in [
    ('    shift = timedelta(hours=1) if label == "end" else timedelta(0)', '    shift = timedelta(0)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
