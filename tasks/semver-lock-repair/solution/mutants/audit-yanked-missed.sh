#!/usr/bin/env bash
# Unhandled edge case: the audit never checks whether a locked version has been yanked.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pkgsolve/audit.py"
s = open(p).read()
for old, new in [
    ('        if registry.release(name, v).yanked:\n            rows[name] = (text, "yanked")\n        elif not all(', '        if not all('),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
