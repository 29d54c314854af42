#!/usr/bin/env bash
# Unhandled edge case: starts the filter from the first observation even when a sensor dropped out in it, so the pilot dies on a null.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/flight/sensors.py'
s = open(p).read()
for old, new in [
    ('if not self.fixed and reading.complete():',
     'if not self.fixed:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
