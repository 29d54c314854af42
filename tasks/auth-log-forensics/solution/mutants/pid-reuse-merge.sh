#!/usr/bin/env bash
# Unhandled edge case: keys sessions by sshd PID alone, so a later login on a reused PID is folded into the first session.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/irkit/sessions.py"
s = open(p).read()
for old, new in [
    ('            s = Session(e)\n            sessions.append(s)\n            open_by_pid[pid] = s\n',
     '            if pid in open_by_pid:\n                continue\n            s = Session(e)\n            sessions.append(s)\n            open_by_pid[pid] = s\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
