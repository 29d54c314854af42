#!/usr/bin/env bash
# Unhandled edge case: ignores mine and depot closure windows, so trucks wait at closed mines and at a closed depot.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bot.py"
s = open(p).read()
for old, new in [
    ('            if m == mid and a <= t <= b:',
     '            if False:'),
    ('            if a <= t <= b:',
     '            if False:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
