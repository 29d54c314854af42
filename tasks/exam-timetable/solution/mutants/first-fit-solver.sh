#!/usr/bin/env bash
# Lossy shortcut: keeps the first-fit search (exams in declaration order, earliest valid slot, first room with room) behind the repaired parser and rules.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/examtt.py"
s = open(p).read()
old = "    rows, cost = search.Search(inst, seed=7, budget=10.0).solve()\n"
new = '''    rows = []
    size = inst.size()
    for exam in inst.exams:
        done = None
        for index in range(inst.days * inst.slots):
            day, slot = inst.slot_of(index)
            used = {}
            for r in rows:
                if (r[1], r[2]) == (day, slot):
                    used[r[3]] = used.get(r[3], 0) + r[4]
            for room, cap in inst.rooms.items():
                if cap - used.get(room, 0) < size[exam]:
                    continue
                trial = rows + [(exam, day, slot, room, size[exam])]
                placed = {r[0] for r in trial}
                bad = [v for v in rules.violations(inst, trial) if v[0] not in ("UNSCHEDULED", "SAME")]
                bad += [v for v in rules.violations(inst, trial) if v[0] == "SAME" and all(x in placed for x in v[1].split("|"))]
                if not bad:
                    done = trial
                    break
            if done:
                break
        if done is None:
            print("examtt: no slot found for %s" % exam, file=sys.stderr)
            return 1
        rows = done
'''
# A patch that no longer applies would leave the reference program: fail loudly instead.
assert s.count(old) == 1, "mutant patch does not apply: %r" % old
s = s.replace(old, new)
open(p, "w").write(s)
PY
