#!/usr/bin/env bash
# Misread rule: reads 16-bit samples least significant byte first.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/png.py"
s = open(p).read()
for old, new in [
    ('px.append(tuple((chunk[2 * k] << 8) | chunk[2 * k + 1] for k in range(channels)))', 'px.append(tuple(chunk[2 * k] | (chunk[2 * k + 1] << 8) for k in range(channels)))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
