#!/usr/bin/env bash
# Misread rule: expands a recursive (=) variable once, when it is defined, like a simple (:=) one.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/buildcore/buildfile.py"
s = open(p).read()
for old, new in [('                bf.vars[name] = ("recursive", value)\n', '                bf.vars[name] = ("recursive", bf.expand(value))\n')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
