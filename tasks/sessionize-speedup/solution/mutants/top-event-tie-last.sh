#!/usr/bin/env bash
# Misread rule: breaks top-event ties by the alphabetically last name instead of the first.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fast_sessionize.py"
s = open(p).read()
for old, new in [
    ('    return min(name for name, c in counts.items() if c == best)\n',
     '    return max(name for name, c in counts.items() if c == best)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
