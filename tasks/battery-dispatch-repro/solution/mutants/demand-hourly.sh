#!/usr/bin/env bash
# Misread rule: charges demand on the month's highest clock-hour average instead of its highest 15-minute demand.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/tariff.py'
s = open(p).read()
for old, new in [
    ('        peak[m] = max(peak.get(m, 0.0), imported)\n    return',
     '        peak.setdefault(m, {}).setdefault(iv.key[:13], []).append(imported)\n    peak = {m: max(sum(v) / len(v) for v in h.values()) for m, h in peak.items()}\n    return'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
