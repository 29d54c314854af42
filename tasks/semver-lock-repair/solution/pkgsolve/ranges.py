"""Version ranges: comparators, x-ranges, caret, tilde, hyphen ranges and `||` unions."""
import re

from .version import Version

_PARTIAL = re.compile(r"^v?(\*|x|X|0|[1-9]\d*)(?:\.(\*|x|X|0|[1-9]\d*)(?:\.(\*|x|X|0|[1-9]\d*)"
                      r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?)?)?$")
_TOKEN = re.compile(r"^(\^|~|>=|<=|>|<|=)?(.*)$")


class RangeError(ValueError):
    pass


class Comparator:
    __slots__ = ("op", "version")

    def __init__(self, op, version):
        self.op, self.version = op, version

    def test(self, v):
        k, c = v.key(), self.version.key()
        if self.op == ">=":
            return k >= c
        if self.op == ">":
            return k > c
        if self.op == "<=":
            return k <= c
        if self.op == "<":
            return k < c
        return k == c

    def __repr__(self):
        return "%s%s" % (self.op, self.version)


def _partial(text):
    m = _PARTIAL.match(text)
    if not m:
        raise RangeError("bad version in range: %r" % text)
    parts = []
    for g in m.group(1, 2, 3):
        parts.append(None if g is None or g in ("*", "x", "X") else int(g))
    # a wildcard makes every later part a wildcard too
    for i in range(1, 3):
        if parts[i - 1] is None:
            parts[i] = None
    pre = tuple(m.group(4).split(".")) if m.group(4) else ()
    if pre and None in parts:
        raise RangeError("prerelease on a partial version: %r" % text)
    return parts[0], parts[1], parts[2], pre


def _v(major, minor=0, patch=0, pre=()):
    return Version(major, minor or 0, patch or 0, pre)


def _bump(major, minor):
    """The version just above a partial: 1 -> 2.0.0, 1.2 -> 1.3.0."""
    if minor is None:
        return _v(major + 1)
    return _v(major, minor + 1)


def _caret(M, m, p, pre):
    if M is None:
        return []
    lo = Comparator(">=", _v(M, m, p, pre))
    if M > 0 or m is None:
        hi = _v(M + 1)
    elif m > 0 or p is None:
        hi = _v(0, m + 1)
    else:
        hi = _v(0, 0, p + 1)
    return [lo, Comparator("<", hi)]


def _tilde(M, m, p, pre):
    if M is None:
        return []
    lo = Comparator(">=", _v(M, m, p, pre))
    return [lo, Comparator("<", _bump(M, m))]


def _xrange(M, m, p, pre):
    if M is None:
        return []
    if m is None or p is None:
        return [Comparator(">=", _v(M, m)), Comparator("<", _bump(M, m))]
    return [Comparator("=", _v(M, m, p, pre))]


def _compare(op, M, m, p, pre):
    if M is None:
        return [Comparator("<", _v(0, 0, 0, ("0",)))] if op in ("<", ">") else []
    full = m is not None and p is not None
    if full:
        return [Comparator(op, _v(M, m, p, pre))]
    if op == ">=":
        return [Comparator(">=", _v(M, m))]
    if op == ">":
        return [Comparator(">=", _bump(M, m))]
    if op == "<":
        return [Comparator("<", _v(M, m))]
    return [Comparator("<", _bump(M, m))]  # <=


def _token(tok):
    m = _TOKEN.match(tok)
    op, rest = m.group(1) or "", m.group(2)
    M, mi, p, pre = _partial(rest)
    if op == "^":
        return _caret(M, mi, p, pre)
    if op == "~":
        return _tilde(M, mi, p, pre)
    if op in ("", "="):
        return _xrange(M, mi, p, pre)
    return _compare(op, M, mi, p, pre)


def _hyphen(lo_text, hi_text):
    M, m, p, pre = _partial(lo_text)
    out = [] if M is None else [Comparator(">=", _v(M, m, p, pre))]
    M, m, p, pre = _partial(hi_text)
    if M is None:
        return out
    if m is None or p is None:
        out.append(Comparator("<", _bump(M, m)))
    else:
        out.append(Comparator("<=", _v(M, m, p, pre)))
    return out


class Range:
    """A union of comparator sets; a version matches when it matches one of the sets."""

    def __init__(self, text):
        self.text = text
        self.sets = []
        for alt in text.split("||"):
            alt = alt.strip()
            hm = re.match(r"^(\S+)\s+-\s+(\S+)$", alt)
            if hm:
                self.sets.append(_hyphen(hm.group(1), hm.group(2)))
                continue
            comps = []
            for tok in alt.split():
                comps.extend(_token(tok))
            self.sets.append(comps)

    def matches(self, v):
        for comps in self.sets:
            if not all(c.test(v) for c in comps):
                continue
            if v.pre and not any(c.version.pre and c.version.release == v.release for c in comps):
                continue
            return True
        return False

    def __repr__(self):
        return "Range(%r)" % self.text
