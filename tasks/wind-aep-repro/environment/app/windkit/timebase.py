"""Timestamps: UTC parsing, local wall-clock labels with EU daylight saving (SPEC.md section 2)."""
from datetime import datetime, timedelta, timezone
from functools import lru_cache

STEP = timedelta(minutes=10)
UTC = timezone.utc


def parse_utc(text):
    """'2025-10-26T01:00:00Z' (or without the Z) as an aware UTC datetime."""
    t = text.strip().rstrip("Z")
    if len(t) != 19 or t[4] != "-" or t[10] != "T":
        raise ValueError("bad UTC stamp %r" % text)
    return datetime(int(t[0:4]), int(t[5:7]), int(t[8:10]), int(t[11:13]), int(t[14:16]), int(t[17:19]), tzinfo=UTC)


def last_sunday(year, month):
    """The date of the last Sunday of a month (March or October)."""
    d = datetime(year, month + 1, 1) - timedelta(days=1)
    while d.weekday() != 6:
        d -= timedelta(days=1)
    return d


@lru_cache(maxsize=None)
def summer_window(year):
    """EU summer time runs from the last Sunday of March 01:00 UTC to the last Sunday of October 01:00 UTC."""
    start = last_sunday(year, 3).replace(hour=1, tzinfo=UTC)
    end = last_sunday(year, 10).replace(hour=1, tzinfo=UTC)
    return start, end


def offset_at(instant, std_min, dst):
    """The local offset (minutes) in force at a UTC instant."""
    if dst != "eu":
        return std_min
    a, b = summer_window(instant.year)
    return std_min + 60 if a <= instant < b else std_min


class LocalDecoder:
    """Turns local end-of-period labels into UTC period starts, in file order.

    A label is the end of its interval written in the offset that was in force during the interval.
    In the fall-back hour the same label occurs twice: the first occurrence is summer time."""

    def __init__(self, std_min, dst):
        self.std = std_min
        self.dst = dst
        self.seen = {}

    def start_of(self, label):
        t = label.strip()
        if len(t) != 16 or t[2] != "." or t[5] != "." or t[13] != ":":
            raise ValueError("bad local label %r" % label)
        naive = datetime(int(t[6:10]), int(t[3:5]), int(t[0:2]), int(t[11:13]), int(t[14:16]))
        offsets = [self.std] if self.dst != "eu" else [self.std + 60, self.std]
        fits = []
        for off in offsets:
            end = (naive - timedelta(minutes=off)).replace(tzinfo=UTC)
            if offset_at(end, self.std, self.dst) == off:
                fits.append(end)
        if not fits:
            raise ValueError("local label %r does not exist" % label)
        if len(fits) == 1:
            return fits[0]
        k = self.seen.get(naive, 0)
        self.seen[naive] = k + 1
        return fits[min(k, 1)]


def month_of(instant):
    return "%04d-%02d" % (instant.year, instant.month)
