"""Debian version order by sort keys (an independent route from dpkg's character loop): every
version becomes epoch + two lists of (weights of a non-digit run, value of the digit run after it),
compared as tuples after padding the shorter list with empty runs."""
import re

RUN = re.compile(r"(\D*)(\d*)")


def _weights(text):
    w = []
    for ch in text:
        if ch == "~":
            w.append(-1)
        elif ("a" <= ch <= "z") or ("A" <= ch <= "Z"):
            w.append(ord(ch))
        else:
            w.append(ord(ch) + 256)
    return tuple(w) + (0,)


def _runs(text):
    return [(_weights(a), int(b) if b else 0) for a, b in RUN.findall(text) if a or b]


def parts(version):
    epoch, colon, rest = version.partition(":")
    if not colon:
        epoch, rest = "0", version
    up, dash, rev = rest.rpartition("-")
    if not dash:
        up, rev = rest, ""
    return int(epoch), _runs(up), _runs(rev)


def _cmp_runs(a, b):
    n = max(len(a), len(b))
    pad = ((0,), 0)
    a = a + [pad] * (n - len(a))
    b = b + [pad] * (n - len(b))
    return (a > b) - (a < b)


def older(a, b):
    """True when version a sorts strictly before version b."""
    ea, ua, ra = parts(a)
    eb, ub, rb = parts(b)
    if ea != eb:
        return ea < eb
    c = _cmp_runs(ua, ub) or _cmp_runs(ra, rb)
    return c < 0
