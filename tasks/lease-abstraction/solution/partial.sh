#!/usr/bin/env bash
# Honest partial: the abstract of every lease (all three styles, amendments by date, compounded
# uplifts, business-day notices) is right, but the rent roll, the critical dates and the audit are
# not written yet: those three commands only print a to-do.
set -euo pipefail
install -m 0644 /solution/leasekit.py /app/leasekit.py
python3 - <<'PY'
p = "/app/leasekit.py"
s = open(p).read()
old = 'def main(argv):\n'
new = ('def main(argv):\n'
       '    if argv and argv[0] in ("rentroll", "dates", "issues"):\n'
       '        sys.stderr.write("%s: not implemented yet\\n" % argv[0])\n'
       '        return 1\n')
assert s.count(old) == 1, "partial patch does not apply"
s = s.replace(old, new)
open(p, "w").write(s)
PY
