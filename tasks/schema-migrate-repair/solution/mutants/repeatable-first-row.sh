#!/usr/bin/env bash
# Misread rule: compares a repeatable's checksum with its first history row instead of its latest one.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/migrator/engine.py"
s = open(p).read()
for old, new in [('            latest[r.description] = r.checksum\n', '            latest.setdefault(r.description, r.checksum)\n')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
