#!/usr/bin/env bash
# Misread rule: the audit checks the sheet's CFU against the counter's count and status instead of the sheet's own.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/audit.py"
s = open(p).read()
for old, new in [
    ('        want_cfu = str(int(said) * plate["dilution"]) if said_status == "OK" else ""', '        want_cfu = truth["cfu"]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
