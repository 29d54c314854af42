#!/usr/bin/env bash
# Lossy shortcut: the climatology test flags only warm departures (no absolute value).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/qc.py',
     '    return abs(value - mean) > CLIM_SD_LIMIT * sd\n',
     '    return value - mean > CLIM_SD_LIMIT * sd\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
