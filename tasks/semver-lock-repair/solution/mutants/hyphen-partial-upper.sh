#!/usr/bin/env bash
# Off-by-one: reads a partial upper end of a hyphen range as inclusive of its .0 version only (1.2.3 - 1.4 as <=1.4.0).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pkgsolve/ranges.py"
s = open(p).read()
for old, new in [
    ('    if m is None or p is None:\n        out.append(Comparator("<", _bump(M, m)))\n    else:\n        out.append(Comparator("<=", _v(M, m, p, pre)))\n', '    out.append(Comparator("<=", _v(M, m, p, pre)))\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
