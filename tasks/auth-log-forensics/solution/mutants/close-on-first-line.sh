#!/usr/bin/env bash
# Unhandled edge case: a session ends at its first closing line (often 'Disconnected from user'), not at 'session closed'.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/irkit/sessions.py"
s = open(p).read()
for old, new in [
    ('        s.end = s.close or s.disc', '        s.end = min((x for x in (s.close, s.disc) if x is not None), key=lambda x: (x.rec.t, x.rec.rank, x.rec.lineno), default=None)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
