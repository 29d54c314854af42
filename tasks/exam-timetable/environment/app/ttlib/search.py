"""Timetable search.

First fit: exams in declaration order, each into the earliest slot where the timetable so far
stays valid, seated in the first room with enough free seats.
"""
from . import rules


class NoTimetable(Exception):
    pass


def solve(inst):
    rows = []
    size = inst.size()
    for exam in inst.exams:
        placed = False
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
                done = {r[0] for r in trial}
                msgs = [m for m in rules.violations(inst, trial) if "not scheduled" not in m
                        and not any(m.startswith(x) for x in ("timetable",))]
                # checks that involve exams not placed yet are skipped
                msgs = [m for m in msgs if all(w in done or not w.isupper() for w in m.split())]
                if not msgs:
                    rows = trial
                    placed = True
                    break
            if placed:
                break
        if not placed:
            raise NoTimetable("no slot found for %s" % exam)
    return rows
