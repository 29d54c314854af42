"""The grader's own reading of the timetabling rules, written from the rule definitions alone.

A model is a plain dict built by gen.py (never parsed from the rendered instance text):
  days, slots, maxperday, optimise, rooms {name: capacity}, exams [code], split {code: rooms},
  enrol {student: set(codes)}, after [(later, earlier)], same [(a, b)], avoid set((code, day)).
A timetable is a list of (exam, day, slot, room, seats) tuples.
"""


def exam_sizes(m):
    size = dict.fromkeys(m["exams"], 0)
    for codes in m["enrol"].values():
        for c in codes:
            size[c] += 1
    return size


def audit(m, rows):
    """The set of (code, subject) violations of a timetable whose pieces each sit in one slot."""
    found = set()
    known = set(m["exams"])
    size = exam_sizes(m)
    pieces = {}
    for exam, day, slot, room, seats in rows:
        if exam not in known:
            found.add(("UNKNOWN", exam))
        else:
            pieces.setdefault(exam, []).append((day, slot, room, seats))
    at = {}
    for exam in m["exams"]:
        mine = pieces.get(exam)
        if not mine:
            found.add(("UNSCHEDULED", exam))
            continue
        at[exam] = (mine[0][0], mine[0][1])
        if sum(p[3] for p in mine) != size[exam]:
            found.add(("SEATS", exam))
        if len(set(p[2] for p in mine)) > m["split"].get(exam, 1):
            found.add(("SPLIT", exam))
    used = {}
    for exam, mine in pieces.items():
        for day, slot, room, seats in mine:
            used[(room, day, slot)] = used.get((room, day, slot), 0) + seats
    for (room, day, slot), seats in used.items():
        if seats > m["rooms"][room]:
            found.add(("CAPACITY", "%s@%d.%d" % (room, day, slot)))
    cap = m["maxperday"]
    for student, codes in m["enrol"].items():
        per_slot, per_day = {}, {}
        for c in codes:
            if c in at:
                per_slot[at[c]] = per_slot.get(at[c], 0) + 1
                per_day[at[c][0]] = per_day.get(at[c][0], 0) + 1
        for (day, slot), k in per_slot.items():
            if k > 1:
                found.add(("CLASH", "%s@%d.%d" % (student, day, slot)))
        for day, k in per_day.items():
            if k > cap:
                found.add(("PERDAY", "%s@%d" % (student, day)))
    for later, earlier in m["after"]:
        if later in at and earlier in at and not at[later] > at[earlier]:
            found.add(("ORDER", "%s|%s" % (later, earlier)))
    for a, b in m["same"]:
        if a in at and b in at and at[a] != at[b]:
            found.add(("SAME", "%s|%s" % (a, b)))
    for exam, day in m["avoid"]:
        if exam in at and at[exam][0] == day:
            found.add(("AVOID", "%s@%d" % (exam, day)))
    return found


def structure_errors(m, rows):
    """What makes a produced timetable malformed before any rule is looked at."""
    errs = []
    seen = {}
    for exam, day, slot, room, seats in rows:
        if not (1 <= day <= m["days"] and 1 <= slot <= m["slots"]):
            errs.append("%s at %s.%s outside the calendar" % (exam, day, slot))
        if room not in m["rooms"]:
            errs.append("%s in unknown room %s" % (exam, room))
        if seats <= 0:
            errs.append("%s has a piece of %s seats" % (exam, seats))
        seen.setdefault(exam, set()).add((day, slot))
    for exam, where in seen.items():
        if len(where) > 1:
            errs.append("%s spread over %d slots" % (exam, len(where)))
    return errs


def back_to_back(m, rows):
    """Pairs of one student's exams in consecutive slots of the same day, over all students."""
    at = {}
    for exam, day, slot, room, seats in rows:
        at[exam] = (day, slot)
    total = 0
    for codes in m["enrol"].values():
        taken = set(at[c] for c in codes if c in at)
        total += sum(1 for (d, s) in taken if (d, s + 1) in taken)
    return total


def student_floor(k, days, slots, cap):
    """Fewest back-to-back pairs a student with k exams can have: per day n exams in a row of
    `slots` leave at most slots - n gaps, so at least 2n - slots - 1 neighbours; spread evenly."""
    per = min(cap, slots)
    if k > days * per:
        return None
    base, extra = divmod(k, days)
    counts = [base + 1] * extra + [base] * (days - extra)
    return sum(max(0, 2 * n - slots - 1) for n in counts)


def lower_bound(m):
    return sum(student_floor(len(c), m["days"], m["slots"], m["maxperday"]) for c in m["enrol"].values())
