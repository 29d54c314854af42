#!/usr/bin/env bash
# Lossy shortcut: rounds the night premium of each shift to the cent and adds the rounded amounts, instead of rounding the period total once.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/payroll/earnings.py"
s = open(p).read()
for old, new in [
    ('cents(hours["night"] * premium)', 'sum((cents(h * premium) for h in hours["night_shifts"]), ZERO)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
