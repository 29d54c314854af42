#!/usr/bin/env bash
# Unhandled edge case: only lowercase s/t set the special bits, so S (setuid/setgid without execute) and T are missed.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/hostaudit/modes.py"
s = open(p).read()
for old, new in [
    ('        if x in "sS" and i < 2:\n',
     '        if x == "s" and i < 2:\n'),
    ('        if x in "tT" and i == 2:\n',
     '        if x == "t" and i == 2:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
