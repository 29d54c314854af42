#!/usr/bin/env python3
"""Legacy sessionizer (correct, but far too slow for production volumes).

usage: python3 sessionize.py EVENTS.csv OUT_DIR
writes OUT_DIR/sessions.csv and OUT_DIR/summary.json
"""
import csv
import json
import os
import sys

GAP = 1800


def load(path):
    events = []
    with open(path, newline="", encoding="utf-8") as f:
        for i, row in enumerate(csv.DictReader(f)):
            if not row or not (row.get("user") or "").strip():
                continue
            events.append((row["user"].strip(), int(float(row["ts"])), row["event"].strip(), i))
    return events


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    events = load(src)
    users = sorted(set(e[0] for e in events))
    sessions = []
    for u in users:
        evs = [e for e in events if e[0] == u]
        # insertion sort by timestamp (stable)
        for i in range(1, len(evs)):
            j = i
            while j > 0 and evs[j - 1][1] > evs[j][1]:
                evs[j - 1], evs[j] = evs[j], evs[j - 1]
                j -= 1
        cur = []
        groups = []
        for e in evs:
            if cur and e[1] - cur[-1][1] > GAP:
                groups.append(cur)
                cur = []
            cur.append(e)
        if cur:
            groups.append(cur)
        for k, grp in enumerate(groups):
            counts = {}
            for e in grp:
                counts[e[2]] = counts.get(e[2], 0) + 1
            top = max(sorted(counts), key=lambda name: counts[name])
            sessions.append(dict(user=u, session=k + 1, start=grp[0][1], end=grp[-1][1],
                                 duration=grp[-1][1] - grp[0][1], n_events=len(grp),
                                 distinct_events=len(counts), top_event=top))
    with open(os.path.join(out, "sessions.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["user", "session", "start", "end", "duration", "n_events", "distinct_events", "top_event"])
        for s in sessions:
            w.writerow([s[k] for k in ("user", "session", "start", "end", "duration", "n_events", "distinct_events", "top_event")])
    peak, peak_t = 0, None
    if sessions:
        lo = min(s["start"] for s in sessions)
        hi = max(s["end"] for s in sessions)
        for t in range(lo, hi + 1):
            c = 0
            for s in sessions:
                if s["start"] <= t <= s["end"]:
                    c += 1
            if c > peak:
                peak, peak_t = c, t
    longest = None
    for s in sessions:
        if longest is None or s["duration"] > longest["duration"] or (
                s["duration"] == longest["duration"] and (s["start"], s["user"]) < (longest["start"], longest["user"])):
            longest = s
    summary = {"sessions": len(sessions), "users": len(users), "events": len(events),
               "peak_concurrency": peak, "peak_time": peak_t,
               "longest": None if longest is None else {k: longest[k] for k in ("user", "session", "duration")}}
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
