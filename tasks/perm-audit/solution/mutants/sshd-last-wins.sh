#!/usr/bin/env bash
# Misread rule: the last value of an sshd keyword wins (sshd keeps the first).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/hostaudit/sshd.py"
s = open(p).read()
for old, new in [
    ('            if not in_match and key not in eff:\n',
     '            if not in_match:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
