#!/usr/bin/env bash
# Misread rule: counts every archive's days in the Gregorian calendar, ignoring its calendar attribute.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/heatwave.py"
s = open(p).read()
for old, new in [
    ('        self.calendar = meta.get("calendar", "standard").lower()\n',
     '        self.calendar = "standard"\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
