#!/usr/bin/env bash
# Unhandled edge case: reads a dropped (null) sensor as 0 instead of skipping that correction.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pilot.py"
s = open(p).read()
for old, new in [
    ('        if m["type"] == "end":\n            break\n',
     '        if m["type"] == "end":\n            break\n        m = {k: (0.0 if v is None else v) for k, v in m.items()}\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
