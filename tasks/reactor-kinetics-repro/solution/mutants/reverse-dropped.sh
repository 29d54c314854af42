#!/usr/bin/env bash
# Misread rule: runs reversible reactions (<=> and =) forward only; the REV parameters are read but never used.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kinetics/rates.py"
s = open(p).read()
for old, new in [
    ('            if rxn.reversible:\n',
     '            if rxn.reversible and rxn.rev is None:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
