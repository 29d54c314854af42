#!/usr/bin/env bash
# Unhandled edge case: matches payer names with their legal suffix (Ltd, GmbH, …) still on, so unreferenced payments stay unapplied.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/reconcile.py"
s = open(p).read()
for old, new in [
    ('    while words and words[-1].rstrip(".") in SUFFIXES:\n        words.pop()\n',
     ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
