#!/usr/bin/env bash
# Unhandled edge case: flags BLURRED frames in qc.csv but still registers and counts them, as if only saturation and shading disqualified a frame.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/scopekit/pipeline.py"
s = open(p).read()
for old, new in [
    ('        good = [f for f in frames if not f.reasons]\n',
     '        good = [f for f in frames if not [r for r in f.reasons if r != "BLURRED"]]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
