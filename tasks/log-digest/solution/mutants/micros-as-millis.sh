#!/usr/bin/env bash
# Misread rule: reads a duration in us as milliseconds.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/digest/fields.py"
s = open(p).read()
for old, new in [
    ('"us": Decimal("0.001")', '"us": Decimal(1)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
