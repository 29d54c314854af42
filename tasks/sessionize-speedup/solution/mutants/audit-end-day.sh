#!/usr/bin/env bash
# Misread rule: the audit files each session under the UTC day of its last event instead of its start.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fast_sessionize.py"
s = open(p).read()
for old, new in [
    ('        per[day_of(s[2])].append(s)\n',
     '        per[day_of(s[3])].append(s)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
