#!/usr/bin/env bash
# Unhandled edge case: normalises CRLF but not a lone CR, so old-Mac files run as one comment line and checksum differently.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/migrator/scripts.py"
s = open(p).read()
for old, new in [('.replace("\\r\\n", "\\n").replace("\\r", "\\n")', '.replace("\\r\\n", "\\n")')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
