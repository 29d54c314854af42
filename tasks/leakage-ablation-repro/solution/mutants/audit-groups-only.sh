#!/usr/bin/env bash
# Misread rule: the audit accepts any fold split that keeps subjects together and covers every row once, not only the protocol's own assignment.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/audit.py"
s = open(p).read()
for old, new in [
    ('len(flat) != len(set(flat)) or \\\n                any(set(map(str, f)) != p for f, p in zip(logged, self.protocol)):',
     'len(flat) != len(set(flat)) or \\\n                set(flat) != set().union(*self.protocol):'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
