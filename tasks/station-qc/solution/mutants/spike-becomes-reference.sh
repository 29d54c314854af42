#!/usr/bin/env bash
# Misread rule: a rejected spike becomes the reference for the next spike test, instead of the last accepted value.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/stationqc.py"
s = open(p).read()
for old, new in [
    ('                day["n_spike"] += 1\n',
     '                day["n_spike"] += 1\n                prev = (t, v)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
