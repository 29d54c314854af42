#!/usr/bin/env bash
# Honest partial: a repaired reader, thresholds and cell events, but only in the Gregorian
# calendar, and no regional extent or catalogue audit.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/heatwave.py").read()
cut = s.index("    # Region mask:")
tail = s.index('\n\nif __name__ == "__main__":')
s = s[:cut] + s[tail:]
s = s.replace('        self.calendar = meta.get("calendar", "standard").lower()\n',
              '        self.calendar = "standard"\n')
open("/app/heatwave.py", "w").write(s)
PY
