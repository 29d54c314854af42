#!/usr/bin/env bash
# Misread rule: applies the JCAMP YFACTOR again after the values were already scaled, so JCAMP peak heights and areas are too small.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PATCH'
p = "/app/specfit/readers.py"
s = open(p).read()
for old, new in [
    ('    x, y = _ascending(xs, ys)\n    return Spectrum(labels.get("TITLE", ""), x, y, meta)',
     '    x, y = _ascending(xs, [v * yfactor for v in ys])\n    return Spectrum(labels.get("TITLE", ""), x, y, meta)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PATCH
