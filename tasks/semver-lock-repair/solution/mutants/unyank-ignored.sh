#!/usr/bin/env bash
# Misread rule: a yank is permanent; a later un-yank event is ignored.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pkgsolve/registry.py"
s = open(p).read()
for old, new in [
    ('rel[v].yanked = bool(rec.get("yanked", False))', 'rel[v].yanked = rel[v].yanked or bool(rec.get("yanked", False))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
