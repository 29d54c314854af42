#!/usr/bin/env bash
# Lossy shortcut: diffs rules by their written tokens instead of what they match, so group and object edits are missed and respellings reported.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fwaudit/audit.py"
s = open(p).read()
for old, new in [
    ('    a = {r.seq: r.key() for r in (old.rules if old else [])}\n    b = {r.seq: r.key() for r in new.rules}\n',
     '    a = {r[0]: r[1:5] for r in (old.raw_rules if old else [])}\n    b = {r[0]: r[1:5] for r in new.raw_rules}\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
