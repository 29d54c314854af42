#!/usr/bin/env python3
"""Same output as sessionize.py in O(n log n): grouped sort + sweep line for concurrency."""
import csv, json, os, sys
from collections import defaultdict

GAP = 1800


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    by_user = defaultdict(list)
    n_events = 0
    with open(src, newline="", encoding="utf-8") as f:
        for i, row in enumerate(csv.DictReader(f)):
            if not row or not (row.get("user") or "").strip():
                continue
            by_user[row["user"].strip()].append((int(float(row["ts"])), i, row["event"].strip()))
            n_events += 1
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
            best = max(counts.values())
            top = min(name for name, c in counts.items() if c == best)
            sessions.append((u, k + 1, grp[0][0], grp[-1][0], grp[-1][0] - grp[0][0], len(grp), len(counts), top))
    with open(os.path.join(out, "sessions.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["user", "session", "start", "end", "duration", "n_events", "distinct_events", "top_event"])
        w.writerows(sessions)
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
    summary = {"sessions": len(sessions), "users": len(users), "events": n_events,
               "peak_concurrency": peak, "peak_time": peak_t,
               "longest": None if longest is None else {"user": longest[0], "session": longest[1], "duration": longest[4]}}
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
