#!/usr/bin/env bash
# Lossy shortcut: label-map values are used as written, not trimmed and lower-cased.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/labels.py"
s = open(p).read()
for old, new in [
    ('    return {norm(str(k)): norm(str(v)) for k, v in raw.items()}',
     '    return {norm(str(k)): str(v).strip() for k, v in raw.items()}'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
