#!/usr/bin/env bash
# Lossy shortcut: fits the standardiser on the training and test rows of each fold together (the test fold leaks into the scaling).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/abl/pipeline.py"
s = open(p).read()
for old, new in [
    ('scaler = prep.Standardizer().fit(Xtr)',
     'scaler = prep.Standardizer().fit(Xtr + Xte)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
