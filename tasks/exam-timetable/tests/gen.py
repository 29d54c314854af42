"""Seeded timetabling instances built around a planted timetable.

Each instance is planned as a model (judge.py's dict) together with a timetable that satisfies
it: exams are put in slots first, every student then picks exams slot by slot (so the planted
timetable has no clash and respects the daily limit), constraints are drawn among pairs the plan
already satisfies, and rooms are packed per slot with split allowances read off the packing. For
optimising instances each student's slots are chosen with the fewest back-to-back pairs her exam
count allows, so the planted timetable meets the per-student lower bound and is optimal. Only
then is the model rendered as instance text (mild or heavy syntax) and, for audits, the planted
timetable damaged on purpose.
"""
import itertools

import judge

SUBJECTS = ["MATH", "PHYS", "CHEM", "BIO", "HIST", "ECON", "LAW", "CS", "STAT", "GEO", "PHIL", "LING",
            "MUS", "ART", "ENG", "PSY", "MED", "ARCH", "SOC", "NURS"]
ROOMS = ["HALL-A", "HALL-B", "R101", "R102", "R204", "R205", "LAB1", "LAB2", "GYM", "AULA", "SEM3", "SEM4"]
TERMS = ["Autumn 2027", "Spring 2028", "Resit 2028", "Winter 2027/28"]

KNOBS = {
    # days, slots, per-day limit, exams per slot, students, exam counts, room slack, constraints
    "loose": dict(days=4, slots=3, cap=2, per_slot=(1, 1), students=(30, 45), k=(2, 5), slack=2.0,
                  after=0, same=0, avoid=3, opt=False),
    "tight": dict(days=3, slots=3, cap=2, per_slot=(3, 3), students=(80, 100), k=(5, 6), slack=1.2,
                  after=5, same=2, avoid=5, opt=False),
    "optimise": dict(days=3, slots=3, cap=3, per_slot=(2, 2), students=(50, 70), k=(3, 8), slack=1.6,
                     after=3, same=1, avoid=3, opt=True),
    "optimise4": dict(days=4, slots=3, cap=3, per_slot=(2, 2), students=(50, 70), k=(4, 10), slack=1.6,
                      after=3, same=1, avoid=3, opt=True),
    "audit": dict(days=3, slots=3, cap=2, per_slot=(2, 2), students=(40, 55), k=(3, 6), slack=1.5,
                  after=4, same=2, avoid=4, opt=False),
}


def codes(rng, n):
    out = set()
    while len(out) < n:
        out.add("%s%d%02d" % (rng.choice(SUBJECTS), rng.randint(1, 3), rng.randint(0, 99)))
    return rng.sample(sorted(out), n)


def day_counts(rng, k, days, cap, even):
    if even:
        base, extra = divmod(k, days)
        counts = [base + 1] * extra + [base] * (days - extra)
        rng.shuffle(counts)
        return counts
    counts = [0] * days
    for _ in range(k):
        d = rng.choice([i for i in range(days) if counts[i] < cap])
        counts[d] += 1
    return counts


def slot_pattern(rng, n, slots, tidy):
    """n slots of one day: any n for a feasibility plan, the fewest neighbours for an optimum."""
    if not tidy:
        return sorted(rng.sample(range(1, slots + 1), n))
    combos = list(itertools.combinations(range(1, slots + 1), n))
    best = min(sum(1 for s in c if s + 1 in c) for c in combos)
    return list(rng.choice([c for c in combos if sum(1 for s in c if s + 1 in c) == best]))


def tidy_after(cs, at, days, slots, cap):
    """True when a student taking the exams cs (at their planted slots) is at her lower bound."""
    taken = {at[c] for c in cs}
    pairs = sum(1 for (d, s) in taken if (d, s + 1) in taken)
    return pairs == judge.student_floor(len(cs), days, slots, cap)


def pack(rng, exams, size, rooms):
    """Planted room use of one slot: best fit decreasing, splitting an exam only when no room holds
    it. Returns {exam: [(room, seats)]}."""
    left = dict(rooms)
    out = {}
    for e in sorted(exams, key=lambda x: (-size[x], x)):
        fits = [r for r in left if left[r] >= size[e]]
        if fits:
            r = min(fits, key=lambda x: (left[x], x))
            left[r] -= size[e]
            out[e] = [(r, size[e])]
            continue
        need, parts = size[e], []
        for r in sorted(left, key=lambda x: (-left[x], x)):
            if need == 0:
                break
            take = min(need, left[r])
            if take > 0:
                parts.append((r, take))
                left[r] -= take
                need -= take
        if need:
            raise ValueError("rooms too small for the planted slot")
        out[e] = parts
    return out


def build(rng, kind):
    """(model, planted rows) for one instance of a kind."""
    k = KNOBS[kind]
    days, slots, cap = k["days"], k["slots"], k["cap"]
    all_slots = [(d, s) for d in range(1, days + 1) for s in range(1, slots + 1)]
    n_per = [rng.randint(*k["per_slot"]) for _ in all_slots]
    names = codes(rng, sum(n_per))
    at, by_slot, i = {}, {}, 0
    for ds, n in zip(all_slots, n_per):
        for _ in range(n):
            at[names[i]] = ds
            by_slot.setdefault(ds, []).append(names[i])
            i += 1
    enrol = {}
    n_students = rng.randint(*k["students"])
    ids = rng.sample(range(1, 10000), n_students)
    for sid in sorted(ids):
        per = min(cap, slots)
        kk = min(rng.randint(*k["k"]), days * per)
        counts = day_counts(rng, kk, days, per, k["opt"])
        chosen = set()
        for d, n in zip(range(1, days + 1), counts):
            for s in slot_pattern(rng, n, slots, k["opt"]):
                chosen.add(rng.choice(by_slot[(d, s)]))
        enrol["s%04d" % sid] = chosen
    size = dict.fromkeys(names, 0)
    for cs in enrol.values():
        for c in cs:
            size[c] += 1
    # Every exam needs a candidate: an exam nobody picked gets the first student without a clash.
    for e in names:
        if size[e] == 0:
            for sid, cs in sorted(enrol.items()):
                if all(at[c] != at[e] for c in cs) and sum(1 for c in cs if at[c][0] == at[e][0]) < cap \
                        and (not k["opt"] or tidy_after(cs | {e}, at, days, slots, cap)):
                    cs.add(e)
                    size[e] = 1
                    break
            else:
                raise ValueError("exam without students")
    load = max(sum(size[e] for e in by_slot[ds]) for ds in all_slots)
    n_rooms = rng.randint(3, 5)
    raw = [rng.uniform(0.5, 1.5) for _ in range(n_rooms)]
    total = k["slack"] * load
    rooms = {}
    for name, w in zip(rng.sample(ROOMS, n_rooms), raw):
        rooms[name] = max(8, int(round(total * w / sum(raw))))
        if kind == "loose":  # roomy: any room seats any exam
            rooms[name] = max(rooms[name], max(size.values()) + rng.randint(0, 10))
    rows, split = [], {}
    for ds in all_slots:
        placed = pack(rng, by_slot[ds], size, rooms)
        for e, parts in sorted(placed.items()):
            if len(parts) > 1 or rng.random() < 0.25:
                split[e] = len(parts) + (1 if rng.random() < 0.4 else 0)
            for r, seats in parts:
                rows.append((e, ds[0], ds[1], r, seats))
    order = sorted(names, key=lambda e: at[e])
    pairs = [(a, b) for a in names for b in names if at[a] > at[b]]
    after = rng.sample(pairs, min(k["after"], len(pairs)))
    same_pairs = [(a, b) for ds in all_slots for a in by_slot[ds] for b in by_slot[ds] if a < b]
    same = rng.sample(same_pairs, min(k["same"], len(same_pairs)))
    same = [(a, b) if rng.random() < 0.5 else (b, a) for a, b in same]
    avoid = set()
    for e in rng.sample(names, min(k["avoid"], len(names))):
        other = [d for d in range(1, days + 1) if d != at[e][0]]
        for d in rng.sample(other, rng.randint(1, min(2, len(other)))):
            avoid.add((e, d))
    m = dict(days=days, slots=slots, maxperday=cap, optimise=k["opt"], rooms=rooms, exams=order,
             split=split, enrol=enrol, after=after, same=same, avoid=avoid, term=rng.choice(TERMS))
    return m, rows


# ---------------------------------------------------------------------------------------- text


def kw(rng, word, heavy):
    if not heavy or rng.random() < 0.5:
        return word
    return rng.choice([word.upper(), word.capitalize(), word.lower()])


def sep(rng, heavy):
    return rng.choice([" ", "  ", "\t", " \t "]) if heavy else " "


def tail(rng, p):
    return rng.choice(["  # checked", "\t# from the registry", " #moved", "  # TODO confirm"]) if rng.random() < p else ""


def render(m, rng, heavy):
    """Instance text for a model; heavy adds keyword case, tabs, continuations, repeated student
    lines, commas, omitted defaults and statements out of the usual order."""
    head = ["# Exam timetable instance", 'term "%s"' % m["term"], ""]
    cal = ["%s %d%s" % (kw(rng, "days", heavy), m["days"], tail(rng, 0.3)),
           "%s%s%d" % (kw(rng, "slots", heavy), sep(rng, heavy), m["slots"])]
    if not (heavy and m["maxperday"] == 2 and rng.random() < 0.7):
        cal.append("%s %d%s" % (kw(rng, "maxperday", heavy), m["maxperday"], tail(rng, 0.3)))
    if m["optimise"]:
        cal.append("%s backtoback" % kw(rng, "objective", heavy))
    rooms = ["%s%s%s%s%s%d%s" % ("  " if heavy and rng.random() < 0.3 else "", kw(rng, "room", heavy), sep(rng, heavy), r,
                               " ", m["rooms"][r], tail(rng, 0.3)) for r in rng.sample(sorted(m["rooms"]), len(m["rooms"]))]
    exams = []
    for e in rng.sample(m["exams"], len(m["exams"])):
        line = "%s%s%s" % (kw(rng, "exam", heavy), sep(rng, heavy), e)
        if e in m["split"]:
            line += " %s %d" % (kw(rng, "split", heavy), m["split"][e])
        exams.append(line + tail(rng, 0.2))
    studs = []
    for sid in rng.sample(sorted(m["enrol"]), len(m["enrol"])):
        cs = rng.sample(sorted(m["enrol"][sid]), len(m["enrol"][sid]))
        joiner = ", " if heavy and rng.random() < 0.3 else " "
        if heavy and len(cs) >= 3 and rng.random() < 0.35:
            cut = rng.randint(1, len(cs) - 1)
            first, second = cs[:cut], cs[cut:]
            if rng.random() < 0.5:
                second = second + [first[0]]  # listing an exam twice enrols once
            studs.append("%s %s: %s%s" % (kw(rng, "student", heavy), sid, joiner.join(first), tail(rng, 0.3)))
            studs.append("%s %s: %s" % (kw(rng, "student", heavy), sid, joiner.join(second)))
        elif heavy and len(cs) >= 3 and rng.random() < 0.3:
            cut = rng.randint(1, len(cs) - 1)
            studs.append("%s %s: %s \\" % (kw(rng, "student", heavy), sid, joiner.join(cs[:cut])))
            studs.append("    %s" % joiner.join(cs[cut:]))
        else:
            studs.append("%s %s:%s%s%s" % (kw(rng, "student", heavy), sid, sep(rng, heavy), joiner.join(cs), tail(rng, 0.15)))
    rules = []
    for later, earlier in m["after"]:
        if rng.random() < 0.5:
            rules.append("%s %s %s%s" % (kw(rng, "after", heavy), later, earlier, tail(rng, 0.3)))
        else:
            rules.append("%s %s %s%s" % (kw(rng, "before", heavy), earlier, later, tail(rng, 0.3)))
    for a, b in m["same"]:
        rules.append("%s %s%s%s" % (kw(rng, "same", heavy), a, sep(rng, heavy), b))
    by_exam = {}
    for e, d in sorted(m["avoid"]):
        by_exam.setdefault(e, []).append(d)
    for e, ds in sorted(by_exam.items()):
        word = kw(rng, rng.choice(["day", "days"]) if heavy else "day", heavy)
        glue = rng.choice([",", ", "]) if heavy else ","
        rules.append("%s %s %s %s" % (kw(rng, "avoid", heavy), e, word, glue.join(str(d) for d in ds)))
    rules = rng.sample(rules, len(rules))
    blocks = [cal, rooms, exams, rules, studs]
    if heavy:
        # Statements may come in any order: students before the exams they name, rules first.
        blocks = [cal] + rng.sample(blocks[1:], 4)
    out = head[:]
    for b in blocks:
        out.extend(b)
        out.append("")
    return ("\n".join(out)).encode()


def rows_csv(rows):
    lines = ["exam,day,slot,room,seats"] + ["%s,%d,%d,%s,%d" % r for r in rows]
    return ("\n".join(lines) + "\n").encode()


# -------------------------------------------------------------------------------------- damage


def damage(m, rows, rng):
    """A staff proposal: the planted timetable with one violation of each kind planted on purpose
    (a crowded room whose every piece fits alone, a precedence pair in one slot, a student over
    the daily limit...). The expected audit is judge.audit of the result, not this list."""
    rows = [list(r) for r in rows]
    at = {r[0]: (r[1], r[2]) for r in rows}
    size = {}
    for r in rows:
        size[r[0]] = size.get(r[0], 0) + r[4]
    touched = set()

    def move(e, ds):
        for r in rows:
            if r[0] == e:
                r[1], r[2] = ds
        at[e] = ds
        touched.add(e)

    def free(pool):
        c = [e for e in pool if e not in touched]
        return c or list(pool)

    exams = list(m["exams"])
    slots = sorted(set(at.values()))
    planted = []
    # crowd: one exam's single piece moved into another room of its slot that cannot take both
    for e in rng.sample(exams, len(exams)):
        mine = [r for r in rows if r[0] == e]
        if len(mine) != 1 or e in touched:
            continue
        ds = at[e]
        load = {}
        for r in rows:
            if (r[1], r[2]) == ds:
                load[r[3]] = load.get(r[3], 0) + r[4]
        target = [room for room in m["rooms"] if room != mine[0][3] and mine[0][4] <= m["rooms"][room] < load.get(room, 0) + mine[0][4]]
        if target:
            mine[0][3] = rng.choice(sorted(target))
            touched.add(e)
            planted.append("CAPACITY")
            break
    # order: the later exam of a precedence pair put into the earlier one's slot
    later, earlier = rng.choice(m["after"])
    move(later, at[earlier])
    touched.add(earlier)
    planted.append("ORDER")
    # same: the second exam of a pair moved one slot away
    pairs = [p for p in m["same"] if p[0] not in touched and p[1] not in touched]
    if pairs:
        a, b = rng.choice(pairs)
        move(b, rng.choice([s for s in slots if s != at[a]]))
        touched.add(a)
        planted.append("SAME")
    # avoid: an exam moved onto a day it must avoid
    e, d = rng.choice(sorted(x for x in m["avoid"] if x[0] not in touched) or sorted(m["avoid"]))
    move(e, (d, rng.randint(1, m["slots"])))
    planted.append("AVOID")
    # clash: an exam moved into the slot of another exam one of its students takes
    for sid in rng.sample(sorted(m["enrol"]), len(m["enrol"])):
        cs = sorted(c for c in m["enrol"][sid] if c not in touched)
        if len(cs) >= 2:
            x, y = rng.sample(cs, 2)
            move(x, at[y])
            planted.append("CLASH")
            break
    # perday: a student with the daily limit on a day gets one more exam there, in a free slot
    for sid in rng.sample(sorted(m["enrol"]), len(m["enrol"])):
        cs = m["enrol"][sid]
        days = {}
        for c in cs:
            days.setdefault(at[c][0], []).append(c)
        full = [d for d, l in days.items() if len(l) == m["maxperday"]]
        others = [c for c in cs if c not in touched and at[c][0] not in full]
        if full and others:
            d = rng.choice(sorted(full))
            busy = {at[c][1] for c in days[d]}
            opts = [s for s in range(1, m["slots"] + 1) if s not in busy]
            if opts:
                move(rng.choice(sorted(others)), (d, rng.choice(opts)))
                planted.append("PERDAY")
                break
    # seats: one piece's seat count off by a little
    e = rng.choice(free(exams))
    r = next(r for r in rows if r[0] == e)
    r[4] = max(1, r[4] + rng.choice([-3, -2, -1, 1, 2]))
    touched.add(e)
    # split: a one-room exam divided over two rooms (more than it may use)
    for e in rng.sample(exams, len(exams)):
        mine = [r for r in rows if r[0] == e]
        big = max(mine, key=lambda r: r[4]) if mine else None
        spare = sorted(x for x in m["rooms"] if all(x != r[3] for r in mine))
        if mine and len(mine) == m["split"].get(e, 1) and big[4] >= 2 and e not in touched and spare:
            half = big[4] // 2
            big[4] -= half
            rows.append([e, big[1], big[2], rng.choice(spare), half])
            touched.add(e)
            break
    # unscheduled and unknown
    gone = rng.choice(free(exams))
    rows = [r for r in rows if r[0] != gone]
    stem = gone[:-2]
    ghost = next(stem + "%02d" % n for n in rng.sample(range(100), 100) if stem + "%02d" % n not in m["exams"])
    d, s = rng.choice(slots)
    rows.append([ghost, d, s, rng.choice(sorted(m["rooms"])), rng.randint(5, 20)])
    rows = rng.sample(rows, len(rows))
    return [tuple(r) for r in rows], planted
