#!/usr/bin/env python3
"""Legacy sessionizer (correct, but far too slow for production volumes).

usage: python3 sessionize.py EVENTS.csv OUT_DIR [--daily]
writes OUT_DIR/sessions.csv and OUT_DIR/summary.json; with --daily also OUT_DIR/daily/DAY.json
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sesslib import parse, report, sessions as sessmod  # noqa: E402


def main():
    args = [a for a in sys.argv[1:] if a != "--daily"]
    src, out = args[0], args[1]
    os.makedirs(out, exist_ok=True)
    events = parse.load(src)
    users, sessions = sessmod.sessionize(events)
    report.write_sessions(os.path.join(out, "sessions.csv"), sessions)
    report.write_summary(os.path.join(out, "summary.json"), users, events, sessions)
    if "--daily" in sys.argv[1:]:
        report.write_daily(os.path.join(out, "daily"), sessions)


if __name__ == "__main__":
    main()
