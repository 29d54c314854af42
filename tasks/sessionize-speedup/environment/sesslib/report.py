"""Writing sessions.csv, summary.json and the daily reports."""
import csv
import json
import os
import time

COLUMNS = ("user", "session", "start", "end", "duration", "n_events", "distinct_events", "top_event")


def write_sessions(path, sessions):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(list(COLUMNS))
        for s in sessions:
            w.writerow([s[k] for k in COLUMNS])


def peak(sessions):
    """Most sessions running at one second (start and end inclusive), and the first such second."""
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
    return peak, peak_t


def longest(sessions):
    best = None
    for s in sessions:
        if best is None or s["duration"] > best["duration"] or (
                s["duration"] == best["duration"] and (s["start"], s["user"]) < (best["start"], best["user"])):
            best = s
    return best


def write_summary(path, users, events, sessions):
    pk, pk_t = peak(sessions)
    best = longest(sessions)
    summary = {"sessions": len(sessions), "users": len(users), "events": len(events),
               "peak_concurrency": pk, "peak_time": pk_t,
               "longest": None if best is None else {k: best[k] for k in ("user", "session", "duration")}}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, ensure_ascii=False)


def day_of(second):
    return time.strftime("%Y-%m-%d", time.gmtime(second))


def daily(sessions, day):
    """The daily report of one UTC day: the sessions that START on that day."""
    mine = [s for s in sessions if day_of(s["start"]) == day]
    tops = {}
    for s in mine:
        tops[s["top_event"]] = tops.get(s["top_event"], 0) + 1
    return {"day": day, "sessions": len(mine), "events": sum(s["n_events"] for s in mine),
            "users": len(set(s["user"] for s in mine)),
            "longest": max([s["duration"] for s in mine] or [0]),
            "top_event": max(sorted(tops), key=lambda name: tops[name]) if tops else None}


def write_daily(folder, sessions):
    """One DAY.json per UTC day on which some session starts."""
    os.makedirs(folder, exist_ok=True)
    for day in sorted(set(day_of(s["start"]) for s in sessions)):
        with open(os.path.join(folder, day + ".json"), "w", encoding="utf-8") as f:
            json.dump(daily(sessions, day), f, indent=1, ensure_ascii=False)
