"""The site file (SPEC.md section 1)."""
import json
import os

from .timebase import parse_utc


class Site:
    def __init__(self, folder):
        self.folder = folder
        with open(os.path.join(folder, "site.json"), encoding="utf-8") as f:
            cfg = json.load(f)
        self.name = cfg.get("farm", "")
        self.std_min = int(cfg.get("utc_offset_min", 0))
        self.dst = cfg.get("dst", "none")
        self.start = parse_utc(cfg["period"]["start"])
        self.end = parse_utc(cfg["period"]["end"])
        self.aep = cfg["aep"]
        self.turbines = sorted(cfg["turbines"], key=lambda t: t["id"])

    def path(self, rel):
        return os.path.join(self.folder, rel)

    def in_period(self, start):
        return self.start <= start < self.end
