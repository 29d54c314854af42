"""The billing period: local dates, the UTC billing window and its half-hour slots."""
import json
import os
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from .money import dec

SLOT = timedelta(minutes=30)


class Period:
    def __init__(self, folder):
        with open(os.path.join(folder, "period.json"), encoding="utf-8") as f:
            raw = json.load(f)
        self.start = date.fromisoformat(raw["start"])
        self.end = date.fromisoformat(raw["end"])
        self.zone = ZoneInfo(raw["tz"])
        self.vat_rate = dec(raw["vat_rate"])
        self.holidays = {date.fromisoformat(d) for d in raw.get("holidays", [])}

    def days(self):
        """Every local date of the period, first and last included."""
        n = (self.end - self.start).days
        return [self.start + timedelta(days=i) for i in range(n)]

    def window(self):
        """UTC instants of local midnight at the start and after the last day."""
        lo = datetime.combine(self.start, time(0), tzinfo=self.zone).astimezone(timezone.utc)
        hi = datetime.combine(self.end + timedelta(days=1), time(0), tzinfo=self.zone).astimezone(timezone.utc)
        return lo, hi

    def slots(self):
        lo, hi = self.window()
        out = []
        t = lo
        while t < hi:
            out.append(t)
            t += SLOT
        return out

    def local(self, instant):
        """Local wall-clock time of a UTC instant (the zone's offset is looked up once per period)."""
        if not hasattr(self, "_offset"):
            self._offset = self.zone.utcoffset(datetime.combine(self.start, time(12)))
        return (instant + self._offset).replace(tzinfo=None)
