#!/usr/bin/env bash
# Misread rule: checks each piece's seats against its room's capacity instead of the sum over every exam sharing the room in that slot.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ttlib/rules.py"
s = open(p).read()
for old, new in [
    ('''    seats = {}
    for code, mine in pieces.items():
        for _, day, slot, room, n in mine:
            seats[(room, day, slot)] = seats.get((room, day, slot), 0) + n
''',
     '''    seats = {}
    for code, mine in pieces.items():
        for _, day, slot, room, n in mine:
            seats[(room, day, slot)] = max(seats.get((room, day, slot), 0), n)
'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
