"""Timestamps: UTC parsing, local wall-clock labels with EU daylight saving (SPEC.md section 2)."""
from datetime import datetime, timedelta, timezone

STEP = timedelta(minutes=10)
UTC = timezone.utc


def parse_utc(text):
    """'2025-10-26T01:00:00Z' (or without the Z) as an aware UTC datetime."""
    text = text.strip()
    if text.endswith("Z"):
        text = text[:-1]
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)


def last_sunday(year, month):
    """The date of the last Sunday of a month (March or October)."""
    d = datetime(year, month + 1, 1) - timedelta(days=1)
    while d.weekday() != 6:
        d -= timedelta(days=1)
    return d


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
        naive = datetime.strptime(label.strip(), "%d.%m.%Y %H:%M")
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
