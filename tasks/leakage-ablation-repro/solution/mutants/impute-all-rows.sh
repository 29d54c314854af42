#!/usr/bin/env bash
# Lossy shortcut: imputes with column means over the training and test rows together (the test fold leaks into the imputer).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/abl/pipeline.py"
s = open(p).read()
for old, new in [
    ('imputer = prep.MeanImputer().fit(Xtr)',
     'imputer = prep.MeanImputer().fit(Xtr + Xte)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
