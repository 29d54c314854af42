#!/usr/bin/env bash
# Lossy shortcut: inflates only the first IDAT chunk, so images split over several chunks lose their lower rows.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/png.py"
s = open(p).read()
for old, new in [
    ('raw = zlib.decompress(b"".join(compressed))', 'raw = zlib.decompressobj().decompress(compressed[0])'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
