"""Reads a host folder's host.json."""
import json
import os
import re


class HostInfo:
    def __init__(self, folder):
        with open(os.path.join(folder, "host.json"), encoding="utf-8") as f:
            meta = json.load(f)
        self.folder = folder
        self.hostname = meta.get("hostname", "")
        self.offset_min = parse_offset(meta.get("utc_offset", "+00:00"))
        self.collected_at = meta["collected_at"]
        bf = meta.get("bruteforce", {})
        self.bf_failures = int(bf.get("failures", 5))
        self.bf_window_min = float(bf.get("window_min", 10))
        self.travel_kmh = float(meta.get("travel_kmh", 900))
        wh = meta.get("work_hours", {})
        self.work_days = list(wh.get("days", ["Mon", "Tue", "Wed", "Thu", "Fri"]))
        self.work_start = wh.get("start", "08:00")
        self.work_end = wh.get("end", "18:00")


def parse_offset(text):
    text = text.strip()
    if text in ("Z", "z"):
        return 0
    m = re.fullmatch(r"([+-])(\d\d):?(\d\d)", text)
    if not m:
        raise ValueError("bad UTC offset %r" % text)
    v = int(m.group(2)) * 60 + int(m.group(3))
    return -v if m.group(1) == "-" else v
