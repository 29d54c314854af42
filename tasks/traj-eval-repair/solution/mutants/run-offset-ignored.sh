#!/usr/bin/env bash
# Unhandled edge case: uses the system's clock offset for every run, ignoring a run's own clock_offset_s.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/evaluate.py"
s = open(p).read()
for old, new in [
    ('    offset = run.get("clock_offset_s", system.get("clock_offset_s", 0.0))\n',
     '    offset = system.get("clock_offset_s", 0.0)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
