#!/usr/bin/env bash
# Lossy shortcut: takes the first GeoIP network containing the address instead of the longest prefix.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/irkit/geo.py"
s = open(p).read()
for old, new in [
    ('(best is None or net.prefixlen > best[0].prefixlen)', 'best is None'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
