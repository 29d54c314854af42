#!/usr/bin/env bash
# Misread rule: takes every register decrease as a restart from zero (consumption = the new read) instead of a rollover at 10^digits kWh.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ("        delta += register.modulus\n", "        delta = b\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
