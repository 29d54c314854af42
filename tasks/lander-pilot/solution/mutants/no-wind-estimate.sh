#!/usr/bin/env bash
# Lossy shortcut: drops the wind estimate (always 0), so a steady cross-wind pushes the lander off narrow pads.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/flight/wind.py'
s = open(p).read()
for old, new in [
    ('        self.value += WIND_GAIN * innovation_vx / dt\n',
     ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
