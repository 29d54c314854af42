"""The hard constraints and the back-to-back penalty, as violation codes (see /app/SPEC.md)."""


def placement(inst, rows):
    """exam -> (day, slot) from its first row, and exam -> its rows, for declared exams only."""
    where, pieces = {}, {}
    declared = set(inst.exams)
    for r in rows:
        if r[0] in declared:
            pieces.setdefault(r[0], []).append(r)
            where.setdefault(r[0], (r[1], r[2]))
    return where, pieces


def violations(inst, rows):
    out = set()
    declared = set(inst.exams)
    for r in rows:
        if r[0] not in declared:
            out.add(("UNKNOWN", r[0]))
    where, pieces = placement(inst, rows)
    size = inst.size()
    for code in inst.exams:
        if code not in pieces:
            out.add(("UNSCHEDULED", code))
            continue
        if sum(p[4] for p in pieces[code]) != size[code]:
            out.add(("SEATS", code))
        if len({p[3] for p in pieces[code]}) > inst.rooms_allowed(code):
            out.add(("SPLIT", code))
    seats = {}
    for code, mine in pieces.items():
        for _, day, slot, room, n in mine:
            seats[(room, day, slot)] = seats.get((room, day, slot), 0) + n
    for (room, day, slot), n in seats.items():
        if n > inst.rooms.get(room, 0):
            out.add(("CAPACITY", "%s@%d.%d" % (room, day, slot)))
    for sid, codes in inst.enrol.items():
        slots, days = {}, {}
        for c in codes:
            if c in where:
                slots[where[c]] = slots.get(where[c], 0) + 1
                days[where[c][0]] = days.get(where[c][0], 0) + 1
        for (day, slot), n in slots.items():
            if n >= 2:
                out.add(("CLASH", "%s@%d.%d" % (sid, day, slot)))
        for day, n in days.items():
            if n > inst.maxperday:
                out.add(("PERDAY", "%s@%d" % (sid, day)))
    for later, earlier in inst.after:
        if later in where and earlier in where:
            if inst.slot_index(*where[later]) <= inst.slot_index(*where[earlier]):
                out.add(("ORDER", "%s|%s" % (later, earlier)))
    for a, b in inst.same:
        if a in where and b in where and where[a] != where[b]:
            out.add(("SAME", "%s|%s" % (a, b)))
    for code, day in inst.avoid:
        if code in where and where[code][0] == day:
            out.add(("AVOID", "%s@%d" % (code, day)))
    return sorted(out)


def adjacent(inst, a, b):
    """True when slot positions a and b (0-based) are consecutive slots of one day."""
    return b == a + 1 and a // inst.slots == b // inst.slots


def penalty(inst, where_index):
    """Back-to-back pairs: per student, exams in consecutive slots of the same day."""
    total = 0
    for codes in inst.enrol.values():
        taken = sorted({where_index[c] for c in codes if c in where_index})
        for x, y in zip(taken, taken[1:]):
            if adjacent(inst, x, y):
                total += 1
    return total
