#!/usr/bin/env bash
# Misread rule: reads the format-2 presence bitmaps most significant bit first (the logger fills them from bit 0).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kla.py"
s = open(p).read()
for old, new in [
    ('present = [bool(bits[i // 8] >> (i % 8) & 1) for i in range(n)]',
     'present = [bool(bits[i // 8] >> (7 - i % 8) & 1) for i in range(n)]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
