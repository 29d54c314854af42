#!/usr/bin/env bash
# Off-by-one: an invoice exactly 30, 60 or 90 days overdue goes to the next aging bucket.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/arrecon/aging.py"
s = open(p).read()
for old, new in [
    ('    if days <= 30:\n        return "1-30"\n    if days <= 60:\n        return "31-60"\n    if days <= 90:\n', '    if days < 30:\n        return "1-30"\n    if days < 60:\n        return "31-60"\n    if days < 90:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
