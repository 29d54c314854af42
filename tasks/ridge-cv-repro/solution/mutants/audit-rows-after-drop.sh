#!/usr/bin/env bash
# Misread rule: the audit's GROUPS_SPLIT check numbers rows after dropping missing outcomes instead of over the whole release.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgekit/cv.py"
s = open(p).read()
for old, new in [
    ('        fold = row_folds(rows, study.folds)\n',
     '        kept = [i for i, r in enumerate(rows) if parse_number(r[outcome]) is not None]\n        fold = [0] * len(rows)\n        for i, f in zip(kept, row_folds(kept, study.folds)):\n            fold[i] = f\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
