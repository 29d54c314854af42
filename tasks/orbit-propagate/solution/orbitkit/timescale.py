"""UTC epochs with leap seconds. An epoch is 'YYYY-MM-DDTHH:MM:SS[.fff]Z'; a leap second
is written with seconds 60 (e.g. 2016-12-31T23:59:60Z)."""
import datetime

# (first UTC day the value applies, TAI − UTC in seconds)
LEAP_TABLE = [
    ("2009-01-01", 34),
    ("2012-07-01", 35),
    ("2015-07-01", 36),
    ("2017-01-01", 37),
]


def tai_minus_utc(day):
    """TAI − UTC in force on the UTC day 'YYYY-MM-DD'."""
    value = None
    for start, offset in LEAP_TABLE:
        if start <= day:
            value = offset
    if value is None:
        raise ValueError("epoch before the leap-second table: %s" % day)
    return value


def parse(epoch):
    """(day string, calendar seconds since 2000-01-01T00:00:00 counting 86400 a day)."""
    text = epoch.strip()
    if not text.endswith("Z") or "T" not in text:
        raise ValueError("bad UTC epoch %r" % epoch)
    day, clock = text[:-1].split("T")
    hh, mm, ss = clock.split(":")
    d = datetime.date.fromisoformat(day)
    days = (d - datetime.date(2000, 1, 1)).days
    sec = float(ss)
    if not 0 <= sec < 61 or int(hh) > 23 or int(mm) > 59:
        raise ValueError("bad UTC epoch %r" % epoch)
    return day, days * 86400.0 + int(hh) * 3600.0 + int(mm) * 60.0 + sec


def tai(epoch):
    """Seconds on a continuous (TAI-like) scale for a UTC epoch."""
    day, cal = parse(epoch)
    return cal + tai_minus_utc(day)


def elapsed(start, end):
    """SI seconds from UTC epoch `start` to UTC epoch `end` (leap seconds counted)."""
    return tai(end) - tai(start)
