#!/usr/bin/env bash
# Misread rule: the monthly mean in flags.csv averages every day with a mean, complete or not.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/daily.py',
     '    good = [r["mean_c"] for r in rows if r["complete"] and r["mean_c"] is not None]\n',
     '    good = [r["mean_c"] for r in rows if r["mean_c"] is not None]\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
