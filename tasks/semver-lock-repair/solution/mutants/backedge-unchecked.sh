#!/usr/bin/env bash
# Unhandled edge case: a candidate's ranges on packages decided earlier (back-edges of a cycle) are never checked.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pkgsolve/resolver.py"
s = open(p).read()
for old, new in [
    ('            if any((d == name and not rng.matches(v)) or (d in assigned and not rng.matches(assigned[d]))\n                   for d, (_, rng) in deps.items()):\n                continue\n', ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
