#!/usr/bin/env bash
# Misread rule: takes the RPE partner a fixed number of poses ahead (delta times the mean pose rate) instead of the pose nearest to the time delta.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/trajkit/metrics.py"
s = open(p).read()
for old, new in [
    ('''    for k, tk in enumerate(stamps):
        target = tk + delta
        j = bisect.bisect_left(stamps, target)
        best = None
        for c in (j - 1, j):
            if 0 <= c < len(stamps):
                if best is None or abs(stamps[c] - target) < abs(stamps[best] - target):
                    best = c
        if best is None or best <= k or abs(stamps[best] - target) > tolerance:
            continue
''', '''    step = max(1, int(round(delta * (len(stamps) - 1) / (stamps[-1] - stamps[0]))))
    for k in range(len(stamps) - step):
        best = k + step
'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
