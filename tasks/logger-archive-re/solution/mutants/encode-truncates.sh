#!/usr/bin/env bash
# Lossy shortcut: turns decimals back into counts with int() (truncation), so a value like 0.29 at exponent -2 becomes 28.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kla.py"
s = open(p).read()
for old, new in [
    ('    return int(round(v * 10 ** (-exp))) if exp < 0 else int(round(v / 10 ** exp))\n',
     '    return int(v * 10 ** (-exp)) if exp < 0 else int(v / 10 ** exp)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
