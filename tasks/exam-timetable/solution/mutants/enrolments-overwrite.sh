#!/usr/bin/env bash
# Unhandled edge case: a repeated student line replaces the student's earlier enrolments instead of adding to them.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ttlib/lang.py"
s = open(p).read()
for old, new in [
    ('            inst.enrol.setdefault(sid, set()).update(codes)\n',
     '            inst.enrol[sid] = set(codes)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
