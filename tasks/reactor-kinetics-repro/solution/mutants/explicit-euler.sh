#!/usr/bin/env bash
# Lossy shortcut: replaces the Rosenbrock step by explicit Euler with at most span/5000 per step and no error control.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kinetics/integrate.py"
s = open(p).read()
for old, new in [
    ('        f = self.model.rhs\n        n = len(y)\n',
     '        f0 = self.model.rhs(y)\n        return [a + h * b for a, b in zip(y, f0)], [0.0] * len(y)\n        f = self.model.rhs\n        n = len(y)\n'),
    ('        hmax = self.hmax if self.hmax is not None else span\n',
     '        hmax = span / 5000.0\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
