#!/usr/bin/env bash
# Misread rule: a host's risk is the sum of its weights, never doubled for internet exposure.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/hostaudit/fleet.py"
s = open(p).read()
for old, new in [
    ('            risk *= 2\n',
     '            pass\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
