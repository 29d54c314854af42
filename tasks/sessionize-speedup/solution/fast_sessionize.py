#!/usr/bin/env python3
"""Same output as sessionize.py in O(n log n): grouped sort + sweep line for concurrency.

  fast_sessionize.py EVENTS.csv OUT_DIR                       one-shot (sessions.csv, summary.json)
  fast_sessionize.py --day D [--state OLD] --save NEW [--final] BATCH.csv OUT_DIR
                                                              incremental (sessions closed by day D)
  fast_sessionize.py --audit REPORTS_DIR EVENTS.csv OUT_DIR   audit of published daily reports
"""
import calendar, csv, json, os, sys, time
from collections import defaultdict

GAP = 1800
HEADER = ["user", "session", "start", "end", "duration", "n_events", "distinct_events", "top_event"]
FIELDS = ("sessions", "events", "users", "longest", "top_event")


def read_events(src):
    """(user, second, row, event) of every row with a user, as the legacy parser reads them."""
    out = []
    with open(src, newline="", encoding="utf-8") as f:
        for i, row in enumerate(csv.DictReader(f)):
            if not row or not (row.get("user") or "").strip():
                continue
            out.append((row["user"].strip(), int(float(row["ts"])), i, row["event"].strip()))
    return out


def top_of(counts):
    best = max(counts.values())
    return min(name for name, c in counts.items() if c == best)


def sessionize(events):
    by_user = defaultdict(list)
    for u, ts, i, ev in events:
        by_user[u].append((ts, i, ev))
    users = sorted(by_user)
    sessions = []
    for u in users:
        evs = by_user[u]
        evs.sort(key=lambda e: (e[0], e[1]))  # stable by input order, like the insertion sort
        groups, cur = [], [evs[0]]
        for e in evs[1:]:
            if e[0] - cur[-1][0] > GAP:
                groups.append(cur)
                cur = []
            cur.append(e)
        groups.append(cur)
        for k, grp in enumerate(groups):
            counts = {}
            for e in grp:
                counts[e[2]] = counts.get(e[2], 0) + 1
            sessions.append((u, k + 1, grp[0][0], grp[-1][0], grp[-1][0] - grp[0][0], len(grp), len(counts), top_of(counts)))
    return users, sessions


def write_sessions(path, sessions):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        w.writerows(sessions)


def one_shot(src, out):
    os.makedirs(out, exist_ok=True)
    events = read_events(src)
    users, sessions = sessionize(events)
    write_sessions(os.path.join(out, "sessions.csv"), sessions)
    # Sweep: +1 at start, -1 just after end (ends are inclusive); first instant reaching the peak.
    delta = defaultdict(int)
    for s in sessions:
        delta[s[2]] += 1
        delta[s[3] + 1] -= 1
    peak, peak_t, c = 0, None, 0
    for t in sorted(delta):
        c += delta[t]
        if c > peak:
            peak, peak_t = c, t
    longest = None
    for s in sessions:
        if longest is None or s[4] > longest[4] or (s[4] == longest[4] and (s[2], s[0]) < (longest[2], longest[0])):
            longest = s
    summary = {"sessions": len(sessions), "users": len(users), "events": len(events),
               "peak_concurrency": peak, "peak_time": peak_t,
               "longest": None if longest is None else {"user": longest[0], "session": longest[1], "duration": longest[4]}}
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, ensure_ascii=False)


def incremental(day, old, new, final, src, out):
    """Carries open sessions and per-user session counters from batch to batch in a JSON state."""
    os.makedirs(out, exist_ok=True)
    state = {"counters": {}, "open": {}}
    if old:
        with open(old, encoding="utf-8") as f:
            state = json.load(f)
    counters, open_ = state["counters"], state["open"]  # open: user -> [number, start, last, counts]
    closed = []
    for u, ts, _, ev in sorted(read_events(src), key=lambda e: (e[1], e[2])):
        s = open_.get(u)
        if s is not None and ts - s[2] > GAP:
            closed.append((u, s))
            s = None
        if s is None:
            counters[u] = counters.get(u, 0) + 1
            s = open_[u] = [counters[u], ts, ts, {}]
        s[2] = ts
        s[3][ev] = s[3].get(ev, 0) + 1
    day_end = calendar.timegm(time.strptime(day, "%Y-%m-%d")) + 86400
    for u in list(open_):
        s = open_[u]
        if final or day_end - s[2] > GAP:  # no event of a later day can join it any more
            closed.append((u, s))
            del open_[u]
    rows = [(u, s[0], s[1], s[2], s[2] - s[1], sum(s[3].values()), len(s[3]), top_of(s[3])) for u, s in closed]
    rows.sort(key=lambda r: (r[0], r[1]))
    write_sessions(os.path.join(out, "sessions.csv"), rows)
    if new:
        with open(new, "w", encoding="utf-8") as f:
            json.dump({"counters": counters, "open": open_}, f, ensure_ascii=False)


def day_of(second):
    return time.strftime("%Y-%m-%d", time.gmtime(second))


def daily_reports(sessions):
    per = defaultdict(list)
    for s in sessions:
        per[day_of(s[2])].append(s)
    reports = {}
    for day, mine in per.items():
        tops = defaultdict(int)
        for s in mine:
            tops[s[7]] += 1
        reports[day] = {"day": day, "sessions": len(mine), "events": sum(s[5] for s in mine),
                        "users": len(set(s[0] for s in mine)), "longest": max(s[4] for s in mine),
                        "top_event": top_of(tops)}
    return reports


def audit(folder, src, out):
    os.makedirs(out, exist_ok=True)
    _, sessions = sessionize(read_events(src))
    mine = daily_reports(sessions)
    published = {}
    for name in os.listdir(folder):
        if name.endswith(".json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                published[name[:-5]] = json.load(f)
    findings = []
    for day in sorted(set(mine) | set(published)):
        want = mine.get(day, {"sessions": 0, "events": 0, "users": 0, "longest": 0, "top_event": None})
        if day not in published:
            findings.append({"day": day, "fields": ["missing"]})
            continue
        got = published[day]
        bad = sorted(k for k in FIELDS if k not in got or got[k] != want[k] or type(got[k]) is not type(want[k]))
        if bad:
            findings.append({"day": day, "fields": bad})
    with open(os.path.join(out, "audit.json"), "w", encoding="utf-8") as f:
        json.dump(findings, f, indent=1, ensure_ascii=False)


def main(argv):
    opts, pos, final, i = {}, [], False, 0
    while i < len(argv):
        a = argv[i]
        if a == "--final":
            final = True
        elif a in ("--day", "--state", "--save", "--audit"):
            opts[a] = argv[i + 1]
            i += 1
        else:
            pos.append(a)
        i += 1
    if "--audit" in opts:
        audit(opts["--audit"], pos[0], pos[1])
    elif "--day" in opts:
        incremental(opts["--day"], opts.get("--state"), opts.get("--save"), final, pos[0], pos[1])
    else:
        one_shot(pos[0], pos[1])


if __name__ == "__main__":
    main(sys.argv[1:])
