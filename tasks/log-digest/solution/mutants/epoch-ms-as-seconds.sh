#!/usr/bin/env bash
# Unhandled edge case: epoch timestamps in milliseconds are read as seconds (out of range, so the line is malformed).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/digest/timeutil.py"
s = open(p).read()
for old, new in [
    ('        if abs(value) > EPOCH_MS_ABOVE:\n            return EPOCH + timedelta(milliseconds=value)\n        return EPOCH + timedelta(seconds=value)\n    if isinstance(value, float):', '        return EPOCH + timedelta(seconds=value)\n    if isinstance(value, float):'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
