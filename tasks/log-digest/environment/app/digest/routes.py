"""Route templates: query and fragment dropped, empty segments dropped, id segments replaced by {id}."""
import re

DIGITS = re.compile(r"^[0-9]+$")
HEX_ID = re.compile(r"^[0-9a-f]{16,}$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def is_id(segment):
    return bool(DIGITS.match(segment) or HEX_ID.match(segment) or UUID.match(segment))


def route_of(path):
    for sep in ("?", "#"):
        path = path.split(sep, 1)[0]
    segs = [s for s in path.split("/") if s]
    return "/" + "/".join("{id}" if is_id(s) else s for s in segs)
