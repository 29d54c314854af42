#!/usr/bin/env bash
# Misread rule: a record is iced whenever the temperature is at or below 2 C, whatever the humidity.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/filters.py"
s = open(p).read()
for old, new in [
    ('    return rec["temp"] <= ICING_TEMP_C and rec["rh"] >= ICING_RH_PCT\n',
     '    return rec["temp"] <= ICING_TEMP_C\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
