"""Alert rules: brute force followed by success, impossible travel, root outside working hours."""
import datetime as dt
import os
from collections import deque

from .events import is_root
from .geo import GeoTable, km
from .report import iso

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def hhmm(text):
    h, m = text.strip().split(":")
    return int(h) * 3600 + int(m) * 60


def alerts(info, evs):
    out = []
    window = int(round(info.bf_window_min * 60))
    recent = {}
    for e in evs:
        if e.kind == "fail":
            recent.setdefault(e.src, deque()).append((e.t, e.count))
        elif e.kind == "login":
            q = recent.get(e.src, deque())
            while q and q[0][0] < e.t - window:
                q.popleft()
            if sum(c for _, c in q) >= info.bf_failures:
                out.append((e, "bruteforce", e.user, e.src))
    geo = GeoTable(os.path.join(info.folder, "geoip.csv"))
    prev = {}
    for e in evs:
        if e.kind != "login":
            continue
        place = geo.lookup(e.src)
        if place is None:
            continue
        if e.user in prev:
            pt, pp = prev[e.user]
            d, secs = km(pp, place), e.t - pt
            if d > 0 and (secs == 0 or d / (secs / 3600.0) > info.travel_kmh):
                out.append((e, "impossible_travel", e.user, e.src))
        prev[e.user] = (e.t, place)
    ws, we = hhmm(info.work_start), hhmm(info.work_end)
    days = {d.strip()[:3].title() for d in info.work_days}
    for e in evs:
        if not is_root(e):
            continue
        loc = dt.datetime.fromtimestamp(e.t + info.offset_min * 60, dt.timezone.utc)
        sec = loc.hour * 3600 + loc.minute * 60 + loc.second
        if not (DAYS[loc.weekday()] in days and ws <= sec < we):
            out.append((e, "offhours_root", e.user, ""))
    out.sort(key=lambda r: (r[0].rec.t, r[1], r[0].rec.rank, r[0].rec.lineno))
    return [(name, iso(e.t), u, s, e.rec.line_id) for e, name, u, s in out]
