#!/usr/bin/env bash
# Off-by-one: reports a student who sits exactly maxperday exams on a day (the limit is reached, not exceeded).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ttlib/rules.py"
s = open(p).read()
for old, new in [
    ('            if n > inst.maxperday:\n',
     '            if n >= inst.maxperday:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
