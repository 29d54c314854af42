#!/usr/bin/env bash
# Unhandled edge case: reads a dropped (null) sensor value as 0 C instead of skipping it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/controller.py"
s = open(p).read()
for old, new in [
    ('        self.observe(obs.get("t_air_c"), obs.get("t_mass_c"))\n',
     '        self.observe(obs.get("t_air_c") or 0.0, obs.get("t_mass_c") or 0.0)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
