"""JSON-lines field aliases (docs/DIGEST.md §2) and latency units."""
import re
from decimal import Decimal, InvalidOperation

TIME_KEYS = ("ts", "time", "timestamp", "@timestamp")
METHOD_KEYS = ("method", "verb", "http_method")
PATH_KEYS = ("path", "url", "uri", "request_path")
STATUS_KEYS = ("status", "code", "status_code")
BYTES_KEYS = ("bytes", "size", "resp_bytes", "body_bytes")
UA_KEYS = ("ua", "user_agent", "agent")
MS_KEYS = ("latency_ms", "duration_ms", "elapsed_ms")
DURATION_KEYS = ("duration", "latency", "elapsed")

UNIT = {"ms": Decimal(1), "us": Decimal(1), "s": Decimal(1000)}
DURATION = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|us|s)?\s*$")


class FieldError(ValueError):
    pass


def first(obj, keys):
    for k in keys:
        if k in obj and obj[k] is not None:
            return obj[k]
    return None


def number(value):
    """A JSON number or numeric string as Decimal."""
    if isinstance(value, bool):
        raise FieldError("not a number: %r" % value)
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, str):
        try:
            d = Decimal(value.strip())
        except InvalidOperation:
            raise FieldError("not a number: %r" % value)
        if not d.is_finite():
            raise FieldError("not a number: %r" % value)
        return d
    raise FieldError("not a number: %r" % (value,))


def integer(value):
    d = number(value)
    if d != d.to_integral_value():
        raise FieldError("not an integer: %r" % (value,))
    return int(d)


def duration_ms(value):
    """A duration string ("87ms", "0.087s", "350us") or bare number (seconds) in milliseconds."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value) * UNIT["s"]
    if not isinstance(value, str):
        raise FieldError("bad duration %r" % (value,))
    m = DURATION.match(value)
    if not m:
        raise FieldError("bad duration %r" % value)
    return Decimal(m.group(1)) * UNIT[m.group(2) or "s"]


def latency_ms(obj):
    v = first(obj, MS_KEYS)
    if v is not None:
        return number(v)
    v = first(obj, DURATION_KEYS)
    if v is not None:
        return duration_ms(v)
    raise FieldError("no latency")
