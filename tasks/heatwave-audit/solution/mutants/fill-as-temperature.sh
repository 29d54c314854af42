#!/usr/bin/env bash
# Unhandled edge case: ignores _FillValue, so missing days are unpacked as temperatures.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/heatwave.py"
s = open(p).read()
for old, new in [
    ('None if r == self.fill else r * scale + offset - shift',
     'r * scale + offset - shift'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
