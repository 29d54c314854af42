#!/usr/bin/env bash
# Misread rule: lets a thermometer stay level (each cell at least the previous one, not greater).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gridkit/rules.py"
s = open(p).read()
for old, new in [
    ('            if vals[i] and vals[i + 1] and not vals[i] < vals[i + 1]:',
     '            if vals[i] and vals[i + 1] and not vals[i] <= vals[i + 1]:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
