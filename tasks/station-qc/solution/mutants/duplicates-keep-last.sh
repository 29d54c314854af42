#!/usr/bin/env bash
# Misread rule: a duplicated instant keeps the value read last instead of the first.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/network.py',
     '            per = seen.setdefault(station, {})\n            if t not in per:\n                per[t] = v\n',
     '            seen.setdefault(station, {})[t] = v\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
