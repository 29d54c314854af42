#!/usr/bin/env bash
# Misread rule: masks only the cloud bit, so cloud shadow and fill pixels pass as clear (and shadows are not counted as cloud).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/floodkit/water.py"
s = open(p).read()
for old, new in [
    ('    return qa & (FILL | CLOUD | SHADOW) == 0\n', '    return qa & CLOUD == 0\n'),
    ('    return not is_fill(qa) and qa & (CLOUD | SHADOW) != 0\n', '    return not is_fill(qa) and qa & CLOUD != 0\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
