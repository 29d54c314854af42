#!/usr/bin/env bash
# Misread rule: deals rows to the folds in file order (plain k-fold), so a subject's visits land in several folds.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/abl/pipeline.py"
s = open(p).read()
for old, new in [
    ('fold_of = folds.group_kfold(table.groups, k)',
     'fold_of = [i % k for i in range(len(table))]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
