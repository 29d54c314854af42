#!/usr/bin/env bash
# Misread rule: checks a reported concentration against the one from the reproduced ratio instead of the report's own ratio, so a wrong ratio also raises CONC.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PATCH'
p = "/app/runbatch.py"
s = open(p).read()
for old, new in [
    ('                want, _ = quantify(rep_ratio, analytes[a]["standards"], sp.dilution)',
     '                want, _ = quantify(ratio, analytes[a]["standards"], sp.dilution)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PATCH
