#!/usr/bin/env bash
# Edge case: a cage still being read when the file ends is never stored, so a file ending in a cage line loses that cage.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gridkit/parser.py"
s = open(p).read()
for old, new in [
    ('        i += 1\n    flush()\n',
     '        i += 1\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
