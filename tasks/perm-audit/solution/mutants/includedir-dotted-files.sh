#!/usr/bin/env bash
# Unhandled edge case: #includedir reads files whose names contain a dot, which sudo skips.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/hostaudit/sudoers.py"
s = open(p).read()
for old, new in [
    ('                    if "." in name or name.endswith("~"):\n',
     '                    if name.endswith("~"):\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
