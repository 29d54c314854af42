#!/usr/bin/env bash
# Honest partial: repairs the answer key, the wind innovation's sign and the descent profile, so
# calm and low-fuel flights land; leaves the one-sided wind clamp and the first fix from an
# incomplete observation, and adds no audit.
set -euo pipefail
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/flight/protocol.py", [('"tilt": round(float(angle), 4)}', '"angle": round(float(angle), 4)}')])
patch("/app/flight/estimator.py", [("innovation = None if mvx is None else pvx - mvx", "innovation = None if mvx is None else mvx - pvx")])
patch("/app/flight/guidance.py", [("CRUISE_MAX = 3.0", "CRUISE_MAX = 9.0")])
PY
