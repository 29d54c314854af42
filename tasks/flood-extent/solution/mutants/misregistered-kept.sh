#!/usr/bin/env bash
# Unhandled edge case: flags misregistered tiles in the audit but still counts their pixels in the district areas.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/floodkit/analysis.py"
s = open(p).read()
for old, new in [
    ('            if p is None or tid in self.misregistered or not is_clear(qa) or not is_clear(p[3]):\n',
     '            if p is None or not is_clear(qa) or not is_clear(p[3]):\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
