#!/usr/bin/env bash
# Unhandled edge case: computes softmax as exp(z/T) / sum exp(z/T) without subtracting the max, which overflows on logits offset by thousands.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/calib/probs.py"
s = open(p).read()
for old, new in [
    ("    m = max(z)\n    e = [math.exp((x - m) / t) for x in z]\n", "    e = [math.exp(x / t) for x in z]\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
