#!/usr/bin/env bash
# Honest partial: sessions built in O(n log n), but the peak-concurrency scan still walks every
# second of the time range against every session (too slow for production logs).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/fast_sessionize.py").read()
old = s[s.index("    delta = defaultdict(int)"):s.index("    longest = None")]
new = '''    peak, peak_t = 0, None
    if sessions:
        for t in range(min(x[2] for x in sessions), max(x[3] for x in sessions) + 1):
            c = sum(1 for x in sessions if x[2] <= t <= x[3])
            if c > peak:
                peak, peak_t = c, t
'''
open("/app/fast_sessionize.py", "w").write(s.replace(old, new))
PY
