"""Timestamps: access-log [dd/Mon/YYYY:HH:MM:SS +hhmm], ISO 8601 and epoch numbers, all to aware UTC."""
import re
from datetime import datetime, timedelta, timezone

MONTHS = {m: i + 1 for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())}
CLF = re.compile(r"^(\d{2})/([A-Z][a-z]{2})/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$")
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
# Epoch numbers above this are milliseconds (docs/DIGEST.md §3).
EPOCH_MS_ABOVE = 100_000_000_000


class TimeError(ValueError):
    pass


def parse_clf(text):
    m = CLF.match(text)
    if not m or m.group(2) not in MONTHS:
        raise TimeError("bad access-log time %r" % text)
    d, mon, y, hh, mm, ss, sign, oh, om = m.groups()
    offset = timedelta(hours=int(oh), minutes=int(om))
    if sign == "-":
        offset = -offset
    try:
        local = datetime(int(y), MONTHS[mon], int(d), int(hh), int(mm), int(ss), tzinfo=timezone(offset))
    except ValueError as e:
        raise TimeError(str(e))
    return local.astimezone(timezone.utc)


def parse_iso(text):
    """ISO 8601 with Z, an offset, or none (UTC)."""
    if not isinstance(text, str) or not text.strip():
        raise TimeError("bad time %r" % (text,))
    s = text.strip()
    if s[-1] in "Zz":
        s = s[:-1] + "+00:00"
    try:
        t = datetime.fromisoformat(s)
    except ValueError as e:
        raise TimeError(str(e))
    if t.tzinfo is None:
        t = t.replace(tzinfo=timezone.utc)
    return t.astimezone(timezone.utc)


def parse_epoch(value):
    if isinstance(value, bool):
        raise TimeError("bad epoch %r" % value)
    if isinstance(value, int):
        if abs(value) > EPOCH_MS_ABOVE:
            return EPOCH + timedelta(milliseconds=value)
        return EPOCH + timedelta(seconds=value)
    if isinstance(value, float):
        if value != value or abs(value) > 1e15:
            raise TimeError("bad epoch %r" % value)
        if abs(value) > EPOCH_MS_ABOVE:
            return EPOCH + timedelta(milliseconds=value)
        return EPOCH + timedelta(seconds=value)
    raise TimeError("bad epoch %r" % (value,))


def parse_json_time(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return parse_epoch(value)
    if isinstance(value, str):
        return parse_iso(value)
    raise TimeError("bad time %r" % (value,))


def parse_bound(text):
    """A --since / --until bound."""
    if text is None:
        return None
    return parse_iso(text)


def in_window(ts, since, until):
    """since <= ts < until, either bound optional."""
    if since is not None and ts < since:
        return False
    if until is not None and ts >= until:
        return False
    return True
