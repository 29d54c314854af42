#!/usr/bin/env bash
# Edge case: the audit never reports MISSING_ROW (rows the agency left out are skipped).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/audit.py',
     '            findings.append([key[0], key[1], "MISSING_ROW", "", "", ""])\n            continue\n',
     '            continue\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
