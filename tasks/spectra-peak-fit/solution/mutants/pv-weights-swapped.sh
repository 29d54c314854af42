#!/usr/bin/env bash
# Misread rule: weights the pseudo-Voigt area with eta on the Gaussian part and 1 - eta on the Lorentzian part (the fit itself is right).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PATCH'
p = "/app/specfit/peaks.py"
s = open(p).read()
for old, new in [
    ('    return eta * la + (1.0 - eta) * ga',
     '    return eta * ga + (1.0 - eta) * la'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PATCH
