"""Timestamps: classic syslog, RFC 3339, journald microseconds -> UTC seconds since the epoch."""
import calendar
import datetime as dt
import re

from .hostinfo import parse_offset  # noqa: F401

MONTHS = {m: i + 1 for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"))}
CLASSIC = re.compile(r"^(?P<mon>[A-Z][a-z]{2}) +(?P<day>\d{1,2}) (?P<h>\d\d):(?P<m>\d\d):(?P<s>\d\d) ")
RFC = re.compile(r"^(?P<y>\d{4})-(?P<mo>\d\d)-(?P<d>\d\d)T(?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d)(?:\.(?P<f>\d+))?"
                 r"(?P<off>Z|z|[+-]\d\d:?\d\d) ")


def utc_seconds(y, mo, d, h, mi, s, offset_min):
    return calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0)) - offset_min * 60


def iso_to_seconds(text):
    """An ISO 8601 instant with Z or an offset, as whole UTC seconds."""
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.\d+)?(Z|z|[+-]\d\d:?\d\d)?", text.strip())
    if not m:
        raise ValueError("bad instant %r" % text)
    off = parse_offset(m.group(7)) if m.group(7) else 0
    return utc_seconds(*(int(m.group(i)) for i in range(1, 7)), off)


class YearGuess:
    """Classic stamps carry no year: take it from the collection date."""

    def __init__(self, collected_utc, offset_min):
        local = dt.datetime.fromtimestamp(collected_utc + offset_min * 60, dt.timezone.utc)
        self.limit = (local.year, local.month, local.day, local.hour, local.minute, local.second)
        self.offset_min = offset_min

    def seconds(self, mon, day, h, mi, s):
        y = self.limit[0]
        return utc_seconds(y, mon, day, h, mi, s, 0)


def parse_prefix(line, years):
    """(utc_seconds, rest_of_line) for a classic or RFC 3339 line, or None."""
    m = RFC.match(line)
    if m:
        t = utc_seconds(int(m["y"]), int(m["mo"]), int(m["d"]), int(m["h"]), int(m["mi"]), int(m["s"]), 0)
        return t, line[m.end():]
    m = CLASSIC.match(line)
    if m and m["mon"] in MONTHS:
        t = years.seconds(MONTHS[m["mon"]], int(m["day"]), int(m["h"]), int(m["m"]), int(m["s"]))
        return t, line[m.end():]
    return None


def journal_seconds(value):
    return int(str(value).strip()) // 1000000
