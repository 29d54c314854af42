#!/usr/bin/env bash
# Misread rule: the audit checks every index entry, superseded ones included (entries a repack replaced point at deleted packs).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snapkit/audit.py"
s = open(p).read()
for old, new in [
    ('    for cid, e in index.table.items():\n        path',
     '    for cid, e in [(x["id"], x) for _seq, xs in index.files for x in xs]:\n        path'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
