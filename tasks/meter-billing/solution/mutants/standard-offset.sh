#!/usr/bin/env bash
# Lossy shortcut: converts every instant of the period with the UTC offset of its first day, ignoring a clock change inside the period.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ("        return instant.astimezone(self.zone)", "        return (instant + self.zone.utcoffset(datetime.combine(self.start, time(12)))).replace(tzinfo=None)"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
