#!/usr/bin/env bash
# Unhandled edge case: a target whose command fails is recorded with ok true, so the next build treats it as up to date.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/buildcore/runner.py"
s = open(p).read()
for old, new in [('                "ok": ok,\n', '                "ok": True,\n')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
