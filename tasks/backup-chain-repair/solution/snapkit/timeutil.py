"""Snapshot times: UTC instants written as YYYY-MM-DDTHH:MM:SSZ."""
from datetime import datetime, timedelta, timezone

FMT = "%Y-%m-%dT%H:%M:%SZ"


def parse(text):
    return datetime.strptime(text, FMT).replace(tzinfo=timezone.utc)


def fmt(dt):
    return dt.astimezone(timezone.utc).strftime(FMT)


def snapshot_id(text):
    """The id of a snapshot taken at `text`: 2026-01-02T03:04:05Z -> 20260102T030405Z."""
    return parse(text).strftime("%Y%m%dT%H%M%SZ")


def is_time(text):
    try:
        parse(text)
        return True
    except ValueError:
        return False


def local(dt, offset_minutes):
    """Wall-clock time of the repository's zone (a fixed offset from UTC)."""
    return (dt + timedelta(minutes=offset_minutes)).replace(tzinfo=None)
