#!/usr/bin/env bash
# Off-by-one: fails a frame whose saturated fraction is exactly the 1% limit (the SOP fails only above it).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/scopekit/pipeline.py"
s = open(p).read()
for old, new in [
    ('            if f.saturation > SAT_LIMIT:\n', '            if f.saturation >= SAT_LIMIT:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
