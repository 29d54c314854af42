#!/usr/bin/env bash
# Sign error: a negative UTC offset with minutes (-03:30) keeps its minutes positive (-02:30).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/timeutil.py',
     '    return sign * (int(m.group(2)) * 60 + int(m.group(3)))\n',
     '    return sign * int(m.group(2)) * 60 + int(m.group(3))\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
