#!/usr/bin/env bash
# Off-by-one: equal-mass bins take N // B rows each and put the whole remainder into the last bin instead of spreading it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/calib/binning.py"
s = open(p).read()
for old, new in [
    ("        lo, hi = (b * n) // bins, ((b + 1) * n) // bins\n", "        lo, hi = b * (n // bins), (n if b == bins - 1 else (b + 1) * (n // bins))\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
