#!/usr/bin/env bash
# Missed case: the audit never tests curtailment counted as downtime (those claims become MAINTENANCE_AS_FAULT or WRONG_AVAILABILITY).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/audit.py"
s = open(p).read()
for old, new in [
    ('                reason = "CURTAILMENT_AS_FAULT" if same(value, alt_c, d) else ',
     '                reason = '),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
