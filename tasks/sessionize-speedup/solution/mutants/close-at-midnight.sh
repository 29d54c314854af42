#!/usr/bin/env bash
# Misread rule: nightly mode closes every open session at the end of its batch's day, like the old nightly job (sessions across midnight are cut in two).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fast_sessionize.py"
s = open(p).read()
for old, new in [
    ('        if final or day_end - s[2] > GAP:  # no event of a later day can join it any more\n',
     '        if True:  # the day is over\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
