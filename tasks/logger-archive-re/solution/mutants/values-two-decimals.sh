#!/usr/bin/env bash
# Lossy shortcut: writes values to two decimals, as the old viewer's report prints them, losing the last digit of exponent -3 channels.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kla.py"
s = open(p).read()
for old, new in [
    ('    return raw / 10 ** (-exp)\n',
     '    return round(raw / 10 ** (-exp), 2)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
