"""Records from access logs (combined format) and JSON lines; malformed lines counted, stack traces skipped."""
import json
import re
from collections import namedtuple
from decimal import Decimal, InvalidOperation

from . import fields
from .timeutil import TimeError, parse_clf, parse_json_time

Record = namedtuple("Record", "ts method path status bytes latency_ms ua")

COMBINED = re.compile(
    r'^(\S+) (\S+) (\S+) \[([^\]]+)\] "(\S+) (\S+) ([^"]+)" (\d{3}) (\d+) "([^"]*)" "([^"]*)" (\S+)$')
TRACE_START = "Traceback (most recent call last):"
METHOD = re.compile(r"^[A-Za-z]+$")


class ParseResult:
    def __init__(self):
        self.records = []
        self.malformed = 0


def parse_access_line(line):
    m = COMBINED.match(line)
    if not m:
        return None
    _client, _ident, _user, when, method, path, _proto, status, size, _ref, ua, secs = m.groups()
    try:
        ts = parse_clf(when)
        latency = Decimal(secs) * 1000
    except (TimeError, InvalidOperation):
        return None
    if not latency.is_finite() or latency < 0 or not METHOD.match(method):
        return None
    return Record(ts, method.upper(), path, int(status), int(size), latency, ua)


def parse_access_log(text, result):
    """Combined-format lines. Python stack traces in the log are skipped without counting."""
    in_trace = False
    for line in text.splitlines():
        if in_trace:
            if line[:1] in (" ", "\t"):
                continue
            in_trace = False
        if not line.strip():
            continue
        if line.startswith(TRACE_START):
            in_trace = True
            continue
        rec = parse_access_line(line)
        if rec is None:
            result.malformed += 1
        else:
            result.records.append(rec)


def parse_json_obj(obj):
    if not isinstance(obj, dict):
        return None
    try:
        ts = parse_json_time(fields.first(obj, fields.TIME_KEYS))
        method = fields.first(obj, fields.METHOD_KEYS)
        path = fields.first(obj, fields.PATH_KEYS)
        if not isinstance(method, str) or not METHOD.match(method) or not isinstance(path, str) or not path:
            return None
        status = fields.integer(fields.first(obj, fields.STATUS_KEYS))
        size = fields.integer(fields.first(obj, fields.BYTES_KEYS))
        latency = fields.latency_ms(obj)
    except (TimeError, fields.FieldError, OverflowError):
        return None
    ua = fields.first(obj, fields.UA_KEYS)
    return Record(ts, method.upper(), path, status, size, latency, ua if isinstance(ua, str) else "")


def parse_json_lines(text, result):
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            obj = None
        rec = parse_json_obj(obj)
        if rec is None:
            result.malformed += 1
        else:
            result.records.append(rec)


def parse_sources(sources):
    result = ParseResult()
    for src in sources:
        if src.kind == "log":
            parse_access_log(src.text, result)
        else:
            parse_json_lines(src.text, result)
    return result
