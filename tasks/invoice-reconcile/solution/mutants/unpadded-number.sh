#!/usr/bin/env bash
# Lossy shortcut: builds the invoice id from the number as written, so 'inv 2026/42' never finds INV-2026-0042.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/arrecon/refs.py"
s = open(p).read()
for old, new in [
    ('key = "INV-%s-%04d" % (m.group(1), int(m.group(2)))', 'key = "INV-%s-%s" % (m.group(1), m.group(2))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
