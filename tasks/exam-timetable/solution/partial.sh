#!/usr/bin/env bash
# Honest partial: the parser and the rules repaired, `audit` added and a search that finds valid
# timetables, but the optimisation stage never done: `objective backtoback` is read and ignored,
# so the first valid timetable found is written.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ttlib/search.py"
s = open(p).read()
old = '        self.opt = inst.objective == "backtoback"\n'
assert s.count(old) == 1, "partial patch does not apply: %r" % old
s = s.replace(old, "        self.opt = False\n")
open(p, "w").write(s)
PY
