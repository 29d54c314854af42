#!/usr/bin/env bash
# Unhandled edge case: keys intervals by the local clock reading, so the repeated hour of a fall-back day overwrites the first one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/timeseries.py'
s = open(p).read()
for old, new in [
    ('        out[iv.key] = iv\n',
     '        out[start.strftime("%Y-%m-%d %H:%M")] = iv\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
