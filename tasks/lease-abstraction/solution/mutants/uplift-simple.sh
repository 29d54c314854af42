#!/usr/bin/env bash
# Lossy shortcut: the fixed uplift is applied as simple interest on the initial rent instead of compounding year on year.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/leasekit.py"
s = open(p).read()
for old, new, n in [
    ('rents.append(half_up(rents[-1] * (1 + L["esc"][1] / 100)))', 'rents.append(half_up(L["rent0"] * (1 + L["esc"][1] * i / 100)))', 1),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == n, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
