#!/usr/bin/env bash
# Unhandled edge case: takes every column except id, subject, site and label as a model input, so the post-outcome column (derived from the label) and visit stay in.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/abl/table.py"
s = open(p).read()
for old, new in [
    ('features = [h for h in header if h.startswith(FEATURE_PREFIX)]',
     'features = [h for h in header if h not in (ID_COL, GROUP_COL, LABEL_COL, "site")]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
