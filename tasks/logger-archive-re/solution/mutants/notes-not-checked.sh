#!/usr/bin/env bash
# Lossy shortcut: treats NOTE chunks as comments and never reports them in bad_chunks, even when their CRC fails.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kla.py"
s = open(p).read()
for old, new in [
    ('        if not ok:\n            bad.append({"index": index, "tag": tag})\n',
     '        if not ok:\n            if tag != "NOTE":\n                bad.append({"index": index, "tag": tag})\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
