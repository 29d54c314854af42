#!/usr/bin/env bash
# Misread rule: a day is complete with 18 observations of any flag, not 18 valid ones.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/daily.py',
     '        complete = d["n_valid"] >= COMPLETE_MIN_VALID\n',
     '        complete = d["n_obs"] >= COMPLETE_MIN_VALID\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
