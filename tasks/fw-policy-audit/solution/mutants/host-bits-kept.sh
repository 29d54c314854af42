#!/usr/bin/env bash
# Unhandled edge case: takes a prefix written with host bits (10.1.0.37/24) to start at the written address instead of the network's first address.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fwaudit/addr.py"
s = open(p).read()
for old, new in [
    ('        lo = parse_ip(ip) & ~(size - 1) & TOP_IP\n',
     '        lo = parse_ip(ip)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
