"""Timestamps of the logger files: ISO 8601 local or UTC clock readings, fixed UTC offsets.

Every instant is carried as integer seconds since 1970-01-01 00:00 UTC."""
import re
from datetime import datetime, timezone

_STAMP = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?$")
_OFFSET = re.compile(r"^([+-])(\d{2}):?(\d{2})$")
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


class TimeError(ValueError):
    pass


def parse_offset(text):
    """'UTC', 'Z', '+05:30', '-0330' -> offset east of UTC in minutes."""
    t = (text or "").strip()
    if t.upper() in ("", "UTC", "Z", "GMT"):
        return 0
    m = _OFFSET.match(t)
    if not m:
        raise TimeError("bad UTC offset %r" % text)
    sign = -1 if m.group(1) == "-" else 1
    return sign * (int(m.group(2)) * 60 + int(m.group(3)))


def clock_seconds(y, mo, d, h, mi, s):
    """Seconds since the epoch of a wall-clock reading taken as if it were UTC."""
    dt = datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc)
    return int((dt - EPOCH).total_seconds())


def parse_stamp(text, default_offset_min=0):
    """A timestamp -> UTC seconds. An offset in the text wins over the file's default offset."""
    m = _STAMP.match((text or "").strip())
    if not m:
        raise TimeError("bad timestamp %r" % text)
    y, mo, d, h, mi = (int(m.group(i)) for i in range(1, 6))
    s = int(m.group(6) or 0)
    local = clock_seconds(y, mo, d, h, mi, s)
    zone = m.group(7)
    offset = default_offset_min if zone is None else parse_offset(zone)
    return local - offset * 60


def utc_date(seconds):
    return datetime.fromtimestamp(seconds, tz=timezone.utc).strftime("%Y-%m-%d")


def utc_month(seconds):
    return datetime.fromtimestamp(seconds, tz=timezone.utc).month
