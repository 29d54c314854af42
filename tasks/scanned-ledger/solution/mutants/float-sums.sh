#!/usr/bin/env bash
# Lossy shortcut: adds the amounts as binary floats and compares them exactly with the printed totals.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/recover.py"
s = open(p).read()
for old, new in [
    ('    return Decimal(s.replace(",", "")) if s.strip() else Decimal(0)\n',
     '    return float(s.replace(",", "")) if s.strip() else 0.0\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
