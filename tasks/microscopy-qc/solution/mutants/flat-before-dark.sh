#!/usr/bin/env bash
# Misread rule: divides by the flat field before subtracting the dark frame, C = raw / flat * mean(flat) - dark.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/scopekit/calib.py"
s = open(p).read()
for old, new in [
    ('    return [[(raw[y][x] - dark[y][x]) / gain[y][x] * mean_gain if gain[y][x] > 0 else 0.0 for x in range(w)]\n',
     '    mean_flat = sum(map(sum, flat)) / (w * h)\n'
     '    return [[raw[y][x] / flat[y][x] * mean_flat - dark[y][x] if gain[y][x] > 0 else 0.0 for x in range(w)]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
