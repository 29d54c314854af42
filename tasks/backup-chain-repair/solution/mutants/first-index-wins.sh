#!/usr/bin/env bash
# Misread rule: the first index file listing a chunk wins, so after a repack reads go to the deleted pack.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snapkit/store.py"
s = open(p).read()
for old, new in [
    ('                self.table[e["id"]] = e',
     '                self.table.setdefault(e["id"], e)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
