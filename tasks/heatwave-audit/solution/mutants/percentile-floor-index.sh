#!/usr/bin/env bash
# Off-by-one: takes the value at 0-based index floor(0.9·N) instead of the ⌈0.9·N⌉-th smallest, wrong whenever 0.9·N is whole.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/heatwave.py"
s = open(p).read()
for old, new in [
    ('window[math.ceil(0.9 * len(window) - 1e-9) - 1]',
     'window[int(0.9 * len(window))]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
