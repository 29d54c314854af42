#!/usr/bin/env bash
# Misread rule: flags extrapolation by the diluted concentration against the standards' concentrations instead of the area ratio against the standards' ratios.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PATCH'
p = "/app/specfit/quant.py"
s = open(p).read()
for old, new in [
    ('    flag = "OK" if lo <= ratio <= hi else "EXTRAPOLATED"',
     '    flag = "OK" if min(float(s[0]) for s in standards) <= conc <= max(float(s[0]) for s in standards) else "EXTRAPOLATED"'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PATCH
