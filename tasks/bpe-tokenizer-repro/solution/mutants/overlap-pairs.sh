#!/usr/bin/env bash
# Misread rule: counts overlapping pairs of equal symbols (aaa counts (a, a) twice), the usual count of adjacent positions.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tok/train.py"
s = open(p).read()
for old, new in [
    ("        if a == b:\n            if skip == i:\n                continue\n            skip = i + 1\n", ""),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
