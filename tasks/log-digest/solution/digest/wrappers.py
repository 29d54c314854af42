"""Wrapped files: base64 text and gzip, chained, and the name that decides a file's format."""
import base64
import binascii
import gzip
import re

GZIP_MAGIC = b"\x1f\x8b"
ROTATION = re.compile(r"\.\d+$")


class WrapperError(ValueError):
    pass


def _gunzip(data):
    try:
        return gzip.decompress(data)
    except (OSError, EOFError) as e:
        raise WrapperError("bad gzip: %s" % e)


def _unbase64(data):
    try:
        return base64.b64decode(b"".join(data.split()), validate=True)
    except (binascii.Error, ValueError) as e:
        raise WrapperError("bad base64: %s" % e)


def unwrap(name, data):
    """Strips .b64 / .gz suffixes from the right, decoding as it goes, then any gzip content left.

    Returns (remaining name, content bytes)."""
    while True:
        if name.endswith(".b64"):
            name, data = name[:-4], _unbase64(data)
        elif name.endswith(".gz"):
            name, data = name[:-3], _gunzip(data)
        elif data[:2] == GZIP_MAGIC:
            data = _gunzip(data)
        else:
            return name, data


def log_kind(name):
    """'log', 'jsonl' or None for a name already stripped of its wrappers.

    A rotated file keeps its format: access.log.3 is an access log."""
    base = ROTATION.sub("", name)
    if base.endswith(".log"):
        return "log"
    if base.endswith(".jsonl"):
        return "jsonl"
    return None
