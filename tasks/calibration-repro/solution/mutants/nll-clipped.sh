#!/usr/bin/env bash
# Lossy shortcut: takes the NLL as -log(max(p, 1e-12)), the usual clipped form, so confidently wrong rows count at most 27.6.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/calib/probs.py"
s = open(p).read()
for old, new in [
    ("    return [x - lse for x in sh]\n", "    return [math.log(max(q, 1e-12)) for q in softmax(z, t)]\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
