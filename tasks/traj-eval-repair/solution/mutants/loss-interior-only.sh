#!/usr/bin/env bash
# Unhandled edge case: looks for tracking loss only between consecutive estimated poses, missing a late start or an early end.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/evaluate.py"
s = open(p).read()
for old, new in [
    ('''    gaps.append(stamps[0] - gt[0][0])
    gaps.append(gt[-1][0] - stamps[-1])
''', ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
