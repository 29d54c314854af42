#!/usr/bin/env python3
"""The speed yardstick: an O(n log n) sessionizer written for the grader, timed before each
timed run of the submitted program (usage: timing_ref.py EVENTS.csv OUT_DIR).

Its algorithm is the grader's own: one global sort of row indices by (user, second, row), sessions
cut while walking that order, the peak found by walking sorted starts against sorted ends. The
grader also checks its output against the planted answer of every hidden log, so a wrong yardstick
is a grading error, never a score.
"""
import csv, io, json, os, sys

HEADER = ["user", "session", "start", "end", "duration", "n_events", "distinct_events", "top_event"]


def read(path):
    users, secs, events = [], [], []
    with open(path, newline="", encoding="utf-8") as f:
        rd = csv.reader(f)
        col = {name: i for i, name in enumerate(next(rd))}
        cu, ct, ce = col["user"], col["ts"], col["event"]
        for rec in rd:
            if not rec or len(rec) <= cu:
                continue
            name = rec[cu].strip()
            if name:
                users.append(name)
                secs.append(int(float(rec[ct])))
                events.append(rec[ce].strip())
    return users, secs, events


def sessionize(users, secs, events):
    order = sorted(range(len(users)), key=lambda i: (users[i], secs[i], i))
    table, j = [], 0
    while j < len(order):
        i0 = order[j]
        user, number = users[i0], 0
        while j < len(order) and users[order[j]] == user:
            first = last = secs[order[j]]
            tally = {}
            while j < len(order) and users[order[j]] == user and secs[order[j]] - last <= 1800:
                last = secs[order[j]]
                tally[events[order[j]]] = tally.get(events[order[j]], 0) + 1
                j += 1
            number += 1
            most = max(tally.values())
            top = min(name for name in tally if tally[name] == most)
            table.append((user, number, first, last, last - first, sum(tally.values()), len(tally), top))
    return table


def busiest(table):
    """Walks the sorted starts with a second pointer over the sorted ends: at start t the sessions
    running are the starts so far minus the ends before t (ends are inclusive)."""
    starts = sorted(r[2] for r in table)
    ends = sorted(r[3] for r in table)
    best, at, gone = 0, None, 0
    for i, t in enumerate(starts):
        while ends[gone] < t:
            gone += 1
        if i + 1 < len(starts) and starts[i + 1] == t:
            continue  # count a second once every session starting in it is in
        if i + 1 - gone > best:
            best, at = i + 1 - gone, t
    return best, at


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    users, secs, events = read(src)
    table = sessionize(users, secs, events)
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows([HEADER] + table)
    with open(os.path.join(out, "sessions.csv"), "w", encoding="utf-8") as f:
        f.write(text.getvalue())
    top_n, top_t = busiest(table)
    ranked = sorted(table, key=lambda r: (-r[4], r[2], r[0]))
    report = dict(sessions=len(table), users=len(set(users)), events=len(users),
                  peak_concurrency=top_n, peak_time=top_t,
                  longest=dict(zip(("user", "session", "duration"), (ranked[0][0], ranked[0][1], ranked[0][4]))) if ranked else None)
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(report, ensure_ascii=False, indent=1))

if __name__ == "__main__":
    main()
