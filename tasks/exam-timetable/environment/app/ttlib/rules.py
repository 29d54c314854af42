"""Checks a timetable against an instance. Messages are for people; see /app/SPEC.md for the rules."""


def violations(inst, rows):
    msgs = []
    where = {}
    size = inst.size()
    seats = {}
    for exam, day, slot, room, n in rows:
        if exam not in inst.exams:
            msgs.append("timetable names exam %s, which the instance does not declare" % exam)
            continue
        where[exam] = (day, slot)
        seats[exam] = seats.get(exam, 0) + n
        if n > inst.rooms[room]:
            msgs.append("room %s is too small for %s on day %d slot %d" % (room, exam, day, slot))
    for exam in inst.exams:
        if exam not in where:
            msgs.append("exam %s is not scheduled" % exam)
        elif seats[exam] != size[exam]:
            msgs.append("exam %s seats %d of %d students" % (exam, seats[exam], size[exam]))
    for sid, codes in inst.enrol.items():
        taken = [where[c] for c in codes if c in where]
        for ds in set(taken):
            if taken.count(ds) > 1:
                msgs.append("student %s has two exams on day %d slot %d" % (sid, ds[0], ds[1]))
        if inst.maxperday is not None:
            for d in set(x[0] for x in taken):
                if sum(1 for x in taken if x[0] == d) >= inst.maxperday:
                    msgs.append("student %s has too many exams on day %d" % (sid, d))
    for later, earlier in inst.after:
        if later in where and earlier in where:
            if inst.slot_index(*where[later]) < inst.slot_index(*where[earlier]):
                msgs.append("%s must come after %s" % (later, earlier))
    for a, b in inst.same:
        if a in where and b in where and where[a] != where[b]:
            msgs.append("%s and %s must share a slot" % (a, b))
    for exam, day in inst.avoid:
        if exam in where and where[exam][0] == day:
            msgs.append("%s must not be on day %d" % (exam, day))
    return msgs


def penalty(inst, where_index):
    """Back-to-back pairs: per student, exams in consecutive slots."""
    total = 0
    for codes in inst.enrol.values():
        taken = sorted({where_index[c] for c in codes if c in where_index})
        for x, y in zip(taken, taken[1:]):
            if y == x + 1:
                total += 1
    return total
