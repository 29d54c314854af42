#!/usr/bin/env bash
# Misread rule: the audit reports a claim that left out the missing ids as VALUE_MISMATCH.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/audit.py"
s = open(p).read()
for old, new in [
    ('            return "DROPPED_MISSING", sum',
     '            return "VALUE_MISMATCH", sum'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
