#!/usr/bin/env bash
# Misread rule: with -k, keeps running every planned target after a failure, including those that depend on the failed one.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/buildcore/runner.py"
s = open(p).read()
for old, new in [('        if failed & (g.deps_closure(name)):\n', '        if False:\n')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
