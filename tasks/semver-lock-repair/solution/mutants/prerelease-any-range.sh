#!/usr/bin/env bash
# Misread rule: admits any prerelease inside a range's bounds, without a comparator on the same MAJOR.MINOR.PATCH.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pkgsolve/ranges.py"
s = open(p).read()
for old, new in [
    ('            if v.pre and not any(c.version.pre and c.version.release == v.release for c in comps):\n                continue\n', ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
