#!/usr/bin/env bash
# Order of operations: assigns folds after dropping rows with a missing outcome, so a subject without outcomes shifts the others.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgekit/cv.py"
s = open(p).read()
for old, new in [
    ('        fold = assign_folds(rows, study.subject, study.folds)\n',
     '        fold = [0] * len(rows)\n        kept = [i for i, r in enumerate(rows) if parse_number(r[outcome]) is not None]\n        for i, f in zip(kept, assign_folds([rows[i] for i in kept], study.subject, study.folds)):\n            fold[i] = f\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
