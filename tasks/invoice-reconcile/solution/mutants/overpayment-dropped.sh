#!/usr/bin/env bash
# Lossy shortcut: drops what is left of an overpayment instead of reporting it as unapplied credit.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/reconcile.py"
s = open(p).read()
for old, new in [
    ('        if rem > 0:\n            unapplied.append(',
     '        if False:\n            unapplied.append('),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
