#!/usr/bin/env bash
# Misread rule: compares each focus score with 0.4 x the field's mean focus score instead of its median.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/scopekit/pipeline.py"
s = open(p).read()
for old, new in [
    ('        ref = median([f.focus for f in frames])\n',
     '        ref = sum(f.focus for f in frames) / len(frames)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
