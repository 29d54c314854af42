#!/usr/bin/env bash
# Misread rule: counts equivalent full cycles against the nameplate capacity instead of the usable SoC window.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/degradation.py'
s = open(p).read()
for old, new in [
    ('    return throughput_kwh / battery.usable if battery.usable > 0 else 0.0\n',
     '    return throughput_kwh / battery.capacity\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
