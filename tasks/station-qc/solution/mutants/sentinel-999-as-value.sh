#!/usr/bin/env bash
# Misread rule: -999.9 is not a missing token, so it reaches the range test as a value.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/tokens.py',
     'MISSING_TOKENS = {"", "na", "n/a", "nan", "null", "m", "-9999", "-999.9"}\n',
     'MISSING_TOKENS = {"", "na", "n/a", "nan", "null", "m", "-9999"}\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
