#!/usr/bin/env bash
# Unhandled edge case: the audit compares invoice bookings only, never the unapplied (UNAPPLIED) lines.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/arrecon/audit.py"
s = open(p).read()
for old, new in [
    ('        if key[1] == "UNAPPLIED":\n            reason = "unapplied_wrong"\n', '        if key[1] == "UNAPPLIED":\n            continue\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
