#!/usr/bin/env bash
# Misread rule: the Weibull scale is taken as the mean wind speed, without the gamma function.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/aep.py"
s = open(p).read()
for old, new in [
    ('        scale = mean / math.gamma(1.0 + 1.0 / k)\n',
     '        scale = mean\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
