"""Reads a migrations folder: file names, versions, descriptions, checksums."""
import hashlib
import os
import re

from . import MigrationError

NAME = re.compile(r"^([VUR])(\d+(?:[._]\d+)*)?__(.+)\.sql$")


class Script:
    def __init__(self, kind, version, description, name, text):
        self.kind = kind              # "V", "U" or "R"
        self.version = version        # tuple of ints, None for repeatables
        self.description = description
        self.name = name
        self.text = text

    @property
    def checksum(self):
        return checksum(self.text)

    @property
    def version_text(self):
        return version_text(self.version)


def parse_version(text):
    parts = re.split(r"[._]", text)
    if not text or any(not p.isdigit() for p in parts):
        raise MigrationError("bad version: %r" % text)
    return tuple(int(p) for p in parts)


def version_key(v):
    """Order of versions: part by part as integers; missing trailing parts count as 0."""
    v = list(v)
    while len(v) > 1 and v[-1] == 0:
        v.pop()
    return tuple(v)


def version_text(v):
    return None if v is None else ".".join(str(p) for p in v)


def normalise(text):
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def checksum(text):
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    return data.decode("utf-8")


def scan(folder):
    """Returns (versioned, undo, repeatable): dicts keyed by version key / description."""
    if not os.path.isdir(folder):
        raise MigrationError("no migrations folder: %s" % folder)
    versioned, undo, repeatable = {}, {}, {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            continue
        m = NAME.match(name)
        if not m:
            continue
        kind, ver, desc = m.group(1), m.group(2), m.group(3).replace("_", " ")
        if kind == "R":
            if ver is not None:
                continue
            if desc in repeatable:
                raise MigrationError("duplicate repeatable: %s" % desc)
            repeatable[desc] = Script("R", None, desc, name, read_text(path))
            continue
        if ver is None:
            continue
        v = parse_version(ver)
        table = versioned if kind == "V" else undo
        key = version_key(v)
        if key in table:
            raise MigrationError("duplicate version %s: %s and %s" % (version_text(key), table[key].name, name))
        table[key] = Script(kind, key, desc, name, read_text(path))
    return versioned, undo, repeatable
