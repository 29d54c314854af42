#!/usr/bin/env bash
# Lossy shortcut: the audit compares the rows both sides have and never reports missing instalments or instalments after the end.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/audit.py"
s = open(p).read()
for old, new in [
    ('            if k not in got:\n                out.append([stem, k, "MISSING_INSTALMENT", "", "", fmt(right[k]["payment"])])\n            elif k not in right:\n                out.append([stem, k, "EXTRA_INSTALMENT", "", _shown("payment", got[k].get("payment", "")), ""])\n            else:',
     '            if k not in got or k not in right:\n                continue\n            else:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
