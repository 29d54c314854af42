#!/usr/bin/env bash
# Unhandled edge case: reads the data block little-endian whatever the byte-order flag says.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/heatwave.py"
s = open(p).read()
for old, new in [
    ('struct.unpack("%s%dh" % (self.order, count)',
     'struct.unpack("<%dh" % (count,)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
