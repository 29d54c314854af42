#!/usr/bin/env python3
"""Nightly job (v2.2): sessionizes one day's batch of events and publishes that day's report.

usage: python3 nightly.py BATCH.csv OUT_DIR
writes OUT_DIR/sessions.csv (the batch's sessions) and OUT_DIR/DAY.json (the daily report of the
batch's day, the day of its first event). Each batch is processed on its own.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sesslib import parse, report, sessions as sessmod  # noqa: E402


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    events = parse.load(src)
    _, sessions = sessmod.sessionize(events)
    report.write_sessions(os.path.join(out, "sessions.csv"), sessions)
    if events:
        day = report.day_of(min(e[1] for e in events))
        rep = report.daily(sessions, day)
        with open(os.path.join(out, day + ".json"), "w", encoding="utf-8") as f:
            import json
            json.dump(rep, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
