#!/usr/bin/env bash
# Misread rule: ranks features by the F statistic over all rows and labels, test fold included, instead of the training fold.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/abl/pipeline.py"
s = open(p).read()
for old, new in [
    ('cols = select.top_features(Xtr, ytr, int(cfg["select"]))',
     'cols = select.top_features(Xtr + Xte, ytr + [table.labels[i] for i in test], int(cfg["select"]))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
