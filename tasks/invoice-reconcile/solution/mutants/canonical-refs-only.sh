#!/usr/bin/env bash
# Lossy shortcut: recognises only the canonical INV-YYYY-NNNN reference spelling.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/reconcile.py"
s = open(p).read()
for old, new in [
    ('REF = re.compile(r"inv(?:oice)?\\s*[#:.\\-/ ]*\\s*(\\d{4})\\s*[-/ ]\\s*0*(\\d{1,4})(?!\\d)", re.I)',
     'REF = re.compile(r"INV-(\\d{4})-(\\d{4})")'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
