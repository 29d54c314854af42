#!/usr/bin/env bash
# Misread rule: reads format-2 time deltas as unsigned varints like format 1, so clock steps back (zigzag) come out as big jumps forward.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kla.py"
s = open(p).read()
for old, new in [
    ('times.append(times[-1] + (r.svar() if v2 else r.uvar()))',
     'times.append(times[-1] + r.uvar())'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
