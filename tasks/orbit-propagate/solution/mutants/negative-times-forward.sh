#!/usr/bin/env bash
# Unhandled edge case: propagates negative request times forwards (uses |t|).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kepler.py"
s = open(p).read()
for old, new in [
    ('[propagate(b["r"], b["v"], b["mu"], t * scale) for t in',
     '[propagate(b["r"], b["v"], b["mu"], abs(t) * scale) for t in'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
