#!/usr/bin/env bash
# Lossy shortcut: converts the identified discrete model to continuous time with Euler, (Ad - I)/dt, instead of the matrix logarithm.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/identify.py"
s = open(p).read()
for old, new in [
    ('    ac = [[v / dt for v in row] for row in logm2(ad)]\n',
     '    ac = [[(ad[i][j] - (1.0 if i == j else 0.0)) / dt for j in range(2)] for i in range(2)]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 /app/identify.py /app/data/site/log.csv > /app/site_params.json
