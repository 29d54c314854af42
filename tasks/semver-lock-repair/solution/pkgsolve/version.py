"""Semantic versions (MAJOR.MINOR.PATCH[-PRERELEASE]) and their precedence."""
import re

_VERSION = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$")


class VersionError(ValueError):
    pass


def _ident_key(ident):
    # Numeric identifiers compare as numbers and rank below alphanumeric ones.
    if ident.isdigit():
        return (0, int(ident), "")
    return (1, 0, ident)


class Version:
    __slots__ = ("major", "minor", "patch", "pre", "_key")

    def __init__(self, major, minor, patch, pre=()):
        self.major, self.minor, self.patch, self.pre = major, minor, patch, tuple(pre)
        pre_key = tuple(_ident_key(p) for p in self.pre)
        # A release ranks above every prerelease of the same MAJOR.MINOR.PATCH.
        self._key = (major, minor, patch, 0 if self.pre else 1, pre_key)

    @classmethod
    def parse(cls, text):
        m = _VERSION.match(text.strip())
        if not m:
            raise VersionError("not a version: %r" % text)
        pre = tuple(m.group(4).split(".")) if m.group(4) else ()
        return cls(int(m.group(1)), int(m.group(2)), int(m.group(3)), pre)

    @property
    def release(self):
        return (self.major, self.minor, self.patch)

    def key(self):
        return self._key

    def __eq__(self, other):
        return isinstance(other, Version) and self._key == other._key

    def __lt__(self, other):
        return self._key < other._key

    def __le__(self, other):
        return self._key <= other._key

    def __gt__(self, other):
        return self._key > other._key

    def __ge__(self, other):
        return self._key >= other._key

    def __hash__(self):
        return hash(self._key)

    def __str__(self):
        s = "%d.%d.%d" % (self.major, self.minor, self.patch)
        return s + ("-" + ".".join(self.pre) if self.pre else "")

    def __repr__(self):
        return "Version(%s)" % self
