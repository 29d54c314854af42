"""Seeded event logs: small edge-case-heavy ones and large ones, each with its answer planted.

The generator decides every session while it writes the log: a user's clock only moves forward,
and a step of more than 1800 s is where it starts that user's next session. The expected
sessions and summary are read off those decisions (construction), never computed from the
rendered CSV. The rendering then adds only what the legacy program's normalisation removes:
fractional parts (truncated), a padding space before names (stripped), shuffled rows and a blank
row (skipped).
"""
import csv, io, json
from bisect import bisect_left, bisect_right

EVENTS = ["view", "click", "search", "add_to_cart", "checkout", "login", "logout", "scroll"]
NAMES = ["ana", "Bo", "chen", "dana", "émile", "zoë", "Øystein", "li_wei", "O'Neil", "yusuf", "Ana", "ana2"]
GAP = 1800
HEADER = ["user", "session", "start", "end", "duration", "n_events", "distinct_events", "top_event"]


class Planted:
    """One user's sessions as the generator opens and fills them."""

    def __init__(self):
        self.sessions = []  # [start, last, {event: count}, n]

    def add(self, ts, ev, step):
        if not self.sessions or step > GAP:
            self.sessions.append([ts, ts, {}, 0])
        s = self.sessions[-1]
        s[1] = ts
        s[2][ev] = s[2].get(ev, 0) + 1
        s[3] += 1


def peak(spans):
    """Highest number of sessions covering one second (ends inclusive) and the first such second.

    Counted by binary search at every session start (coverage only rises at a start):
    covering(t) = #starts <= t - #ends < t."""
    if not spans:
        return 0, None
    starts = sorted(a for a, _ in spans)
    ends = sorted(b for _, b in spans)
    best, at = 0, None
    for t in sorted(set(starts)):
        c = bisect_right(starts, t) - bisect_left(ends, t)
        if c > best:
            best, at = c, t
    return best, at


def answer(plan, n_events):
    """(sessions.csv text, summary dict) from the planted sessions."""
    rows = []
    for user in sorted(plan):
        for k, (start, last, counts, n) in enumerate(plan[user].sessions, 1):
            top = sorted(counts, key=lambda name: (-counts[name], name))[0]
            rows.append([user, k, start, last, last - start, n, len(counts), top])
    b = io.StringIO()
    w = csv.writer(b, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(rows)
    top_pk, top_t = peak([(r[2], r[3]) for r in rows])
    longest = min(rows, key=lambda r: (-r[4], r[2], r[0])) if rows else None
    summary = {"sessions": len(rows), "users": len(plan), "events": n_events,
               "peak_concurrency": top_pk, "peak_time": top_t,
               "longest": None if longest is None else {"user": longest[0], "session": longest[1], "duration": longest[4]}}
    return b.getvalue(), summary


def build(rng, kind):
    """kind: small | ties | large. Returns (CSV bytes, (sessions.csv text, summary dict))."""
    if kind == "large":
        nu, n = rng.randint(1000, 1600), rng.randint(30000, 45000)
        users = ["u%05d" % rng.randint(0, 99999) for _ in range(nu)]
    else:
        nu, n = rng.randint(3, 8), rng.randint(20, 60)
        users = rng.sample(NAMES, nu)
    t0 = 1_760_000_000 + rng.randint(0, 10 ** 6)
    rows = []
    clock = {u: t0 + rng.randint(0, 7200) for u in users}
    plan = {}
    for _ in range(n):
        u = rng.choice(users)
        r = rng.random()
        if kind == "ties" and r < 0.25:
            step = 1800  # exactly on the gap: same session
        elif kind == "ties" and r < 0.35:
            step = 1801
        elif kind == "ties" and r < 0.55:
            step = 0
        else:
            step = rng.choice([rng.randint(1, 600), rng.randint(1, 1700), rng.randint(1700, 1900), rng.randint(2000, 20000)])
        clock[u] += step
        ts = clock[u]
        tss = str(ts) if rng.random() < 0.8 else "%d.%d" % (ts, rng.randint(0, 9))
        ev = rng.choice(EVENTS[:3] if kind == "ties" else EVENTS)
        plan.setdefault(u, Planted()).add(ts, ev, step)
        rows.append([(" " + u) if rng.random() < 0.05 else u, tss, ev])
    # Shuffle lightly (logs arrive out of order) but keep some same-timestamp runs in input order.
    for _ in range(len(rows) // 3):
        i, j = rng.randrange(len(rows)), rng.randrange(len(rows))
        rows[i], rows[j] = rows[j], rows[i]
    if kind != "large":
        rows.insert(rng.randint(0, len(rows)), ["", "", ""])
    b = io.StringIO()
    w = csv.writer(b, lineterminator="\n")
    w.writerow(["user", "ts", "event"])
    w.writerows(rows)
    return b.getvalue().encode("utf-8"), answer(plan, n)


# ---- Daily batches (incremental mode) and published daily reports (audit) --------------------

DAY = 86400
REPORT_FIELDS = ("sessions", "events", "users", "longest", "top_event")


def day_name(second):
    import time
    return time.strftime("%Y-%m-%d", time.gmtime(second))


def days_log(rng, kind):
    """Events over 5–7 consecutive UTC days, with sessions planted across midnights.

    Returns (day0, n_days, rows, plan): rows are [user as written, ts as written, event, second].
    Each user's clock only moves forward; a step over 1800 s opens that user's next session (as in
    build). Near a midnight the clock is often moved to just before it and the next step chosen
    to land just inside or just outside the gap on the far side. One interior day may be quiet (no
    events at all): a step landing in it is pushed past it."""
    day0 = (1_760_000_000 // DAY + rng.randint(0, 400)) * DAY
    nd = rng.randint(5, 7)
    end = day0 + nd * DAY
    quiet = rng.randint(1, nd - 2) if rng.random() < 0.6 else None
    if kind == "bulk":
        users = ["u%04d" % k for k in rng.sample(range(10000), rng.randint(40, 60))]
    else:
        users = rng.sample(NAMES, rng.randint(5, 8))
    plan, rows = {}, []
    for u in users:
        clock = day0 + rng.randint(0, 30000)
        prev = None
        after_jump = None
        while True:
            if prev is None:
                ts = clock
            elif after_jump is not None:
                ts = clock + rng.choice([after_jump, after_jump, rng.randint(1, 1800), rng.randint(1801, 5000)])
                after_jump = None
            elif rng.random() < 0.08:
                midnight = (clock // DAY + 1) * DAY
                ts = max(clock, midnight - rng.choice([1, 2, 60, 900, 1799, 1800, 1801, 3000]))
                before = midnight - ts  # the next step crosses midnight if it is at least this
                after_jump = rng.choice([before, before + 1, 1800, 1801, max(before, 1800 - rng.randint(0, 600))])
            elif kind == "names" and rng.random() < 0.2:
                ts = clock + rng.choice([0, 1800, 1801])
            else:
                ts = clock + rng.choice([rng.randint(1, 600), rng.randint(1, 1700), rng.randint(1700, 1900),
                                         rng.randint(2000, 20000)])
            if quiet is not None and day0 + quiet * DAY <= ts < day0 + (quiet + 1) * DAY:
                ts = day0 + (quiet + 1) * DAY + rng.randint(0, 3000)
            if ts >= end:
                break
            step = GAP + 1 if prev is None else ts - prev
            ev = rng.choice(EVENTS[:3] if kind == "names" and rng.random() < 0.5 else EVENTS)
            p = plan.setdefault(u, Planted())
            p.add(ts, ev, step)
            tss = str(ts) if kind == "bulk" or rng.random() < 0.8 else "%d.%d" % (ts, rng.randint(0, 9))
            rows.append([(" " + u) if kind == "names" and rng.random() < 0.05 else u, tss, ev, ts])
            clock = prev = ts
    return day0, nd, rows, plan


def _csv(rows, rng, blank):
    rows = [r[:3] for r in rows]
    for _ in range(len(rows) // 3):
        i, j = rng.randrange(len(rows)), rng.randrange(len(rows))
        rows[i], rows[j] = rows[j], rows[i]
    if blank:
        rows.insert(rng.randint(0, len(rows)), ["", "", ""])
    b = io.StringIO()
    w = csv.writer(b, lineterminator="\n")
    w.writerow(["user", "ts", "event"])
    w.writerows(rows)
    return b.getvalue().encode("utf-8")


def _row(user, k, s):
    start, last, counts, n = s
    top = sorted(counts, key=lambda name: (-counts[name], name))[0]
    return [user, k, start, last, last - start, n, len(counts), top]


def series(rng, kind):
    """A series of daily batches with, for each, the sessions.csv its run must write.

    Returns [(day name, batch CSV bytes, expected sessions.csv text)], in day order; the last
    batch is run with --final. A planted session is due in the batch of the first day d with
    (end of d) - (its last second) > 1800, or in the last batch (construction: the session's last
    second is known before its events are written)."""
    day0, nd, rows, plan = days_log(rng, kind)
    due = [[] for _ in range(nd)]
    for user in plan:
        for k, s in enumerate(plan[user].sessions, 1):
            d = next((d for d in range(nd) if day0 + (d + 1) * DAY - s[1] > GAP), nd - 1)
            due[d].append(_row(user, k, s))
    out = []
    for d in range(nd):
        lo, hi = day0 + d * DAY, day0 + (d + 1) * DAY
        mine = [r for r in rows if lo <= r[3] < hi]
        b = io.StringIO()
        w = csv.writer(b, lineterminator="\n")
        w.writerow(HEADER)
        w.writerows(sorted(due[d], key=lambda r: (r[0], r[1])))
        out.append((day_name(lo), _csv(mine, rng, kind == "names" and rng.random() < 0.5), b.getvalue()))
    return out


def true_reports(day0, nd, plan):
    """Daily report per UTC day of a session start, from the planted sessions."""
    per = {}
    for user in plan:
        for k, s in enumerate(plan[user].sessions, 1):
            per.setdefault(day_name(s[0]), []).append(_row(user, k, s))
    reports = {}
    for day, rs in per.items():
        tops = {}
        for r in rs:
            tops[r[7]] = tops.get(r[7], 0) + 1
        reports[day] = {"day": day, "sessions": len(rs), "events": sum(r[5] for r in rs),
                        "users": len(set(r[0] for r in rs)), "longest": max(r[4] for r in rs),
                        "top_event": sorted(tops, key=lambda name: (-tops[name], name))[0]}
    return reports


def audit_case(rng, kind):
    """(events CSV bytes, {file name: published report bytes}, expected audit list).

    The true reports come from the planted sessions; the published archive is those reports with
    planted damage: on some days one or two fields changed to a different value, some days'
    files left out. The expected findings are exactly the damage planted."""
    day0, nd, rows, plan = days_log(rng, kind)
    truth = true_reports(day0, nd, plan)
    days = sorted(truth)
    fates = ["ok"] + ["missing"] + ["bad"] * 2 + [rng.choice(["ok", "ok", "bad", "missing"]) for _ in days]
    fates = fates[:len(days)]
    rng.shuffle(fates)
    files, expected = {}, []
    for day, fate in zip(days, fates):
        rep = dict(truth[day])
        if fate == "missing":
            expected.append({"day": day, "fields": ["missing"]})
            continue
        if fate == "bad":
            fields = sorted(rng.sample(REPORT_FIELDS, rng.choice([1, 1, 2])))
            for f in fields:
                if f == "top_event":
                    rep[f] = rng.choice([e for e in EVENTS if e != rep[f]])
                elif f == "longest":
                    rep[f] = rep[f] + rng.choice([-1, 1, 60, 1800]) if rep[f] > 0 else rep[f] + rng.randint(1, 900)
                else:
                    rep[f] = rep[f] + rng.choice([-1, 1, 2, 3]) if rep[f] > 1 else rep[f] + rng.randint(1, 3)
            expected.append({"day": day, "fields": fields})
        text = json.dumps(rep, indent=rng.choice([None, 1, 2]), sort_keys=rng.random() < 0.5, ensure_ascii=False)
        files[day + ".json"] = text.encode("utf-8")
    return _csv(rows, rng, kind == "names"), files, expected
