#!/usr/bin/env bash
# Unhandled edge case: CPI reviews apply the cap but not the collar, so a low or negative index change passes through.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/leasekit.py"
s = open(p).read()
for old, new, n in [
    ('change = max(Fraction(L["esc"][1], 100), min(Fraction(L["esc"][2], 100), change))', 'change = min(Fraction(L["esc"][2], 100), change)', 1),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == n, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
