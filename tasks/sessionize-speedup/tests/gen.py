"""Seeded event logs: small edge-case-heavy ones and large ones, each with its answer planted.

The generator decides every session while it writes the log: a user's clock only moves forward,
and a step of more than 1800 s is where it starts that user's next session. The expected
sessions and summary are read off those decisions (construction), never computed from the
rendered CSV. The rendering then adds only what the legacy program's normalisation removes:
fractional parts (truncated), a padding space before names (stripped), shuffled rows and a blank
row (skipped).
"""
import csv, io
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
