#!/usr/bin/env bash
# Off-by-one: a bin is valid only with more than three records.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/binning.py"
s = open(p).read()
for old, new in [
    ('    valid = sorted(k for k, v in means.items() if v[0] >= MIN_COUNT)\n',
     '    valid = sorted(k for k, v in means.items() if v[0] > MIN_COUNT)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
