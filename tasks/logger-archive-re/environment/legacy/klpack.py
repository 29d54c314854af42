#!/usr/bin/env python3
# klpack 1.4 -- DL-7 raw dump (.csv) -> archive (.kla)          (c) Kestrel Field Systems
# usage: klpack.py DUMP.csv OUT.kla
#
# DUMP.csv:  '# station: <id>' and '# start: <unix s>' lines, then a header
#            t,status,<name>:<unit>:<exp>,...   and one row per reading (raw integer counts;
#            physical value = raw * 10**exp).
#
# NB: needs klsum (chunk check values). The klsum build was never checked in; see CHANGES.
import sys as _s, csv as _c
from klsum import chunk_sum as _k

_B = 0x20


def _u(n):
    o = bytearray()
    while 1:
        b, n = n & 127, n >> 7
        o.append(b | (n and 128))
        if not n:
            return bytes(o)


_z = lambda n: _u((n << 1) ^ (n >> 31))
_t = lambda s: (lambda b: _u(len(b)) + b)(s.encode("utf-8"))
_ch = lambda g, p: g + _u(len(p)) + p + _k(g, p)


def _rd(fn):
    m, rows = {}, []
    with open(fn, newline="", encoding="utf-8") as f:
        for ln in f:
            if not ln.startswith("#"):
                break
            k, _, v = ln[1:].partition(":")
            m[k.strip()] = v.strip()
        hd = next(_c.reader([ln]))
        for r in _c.reader(f):
            if r:
                rows.append((int(r[0]), r[1], [int(x) for x in r[2:]]))
    cs = [tuple(h.split(":")) for h in hd[2:]]
    return m["station"], int(m["start"]), [(a, b, int(e)) for a, b, e in cs], rows


def pack(st, t0, cs, rows):
    S = {}
    for a, b, _ in cs:
        S.setdefault(a, len(S)); S.setdefault(b, len(S))
    for r in rows:
        S.setdefault(r[1], len(S))
    o = bytearray(b"KLA\x01")
    o += _ch(b"STRS", _u(len(S)) + b"".join(map(_t, S)))
    o += _ch(b"HEAD", _t(st) + _u(t0) + _u(len(cs)) + b"".join(_u(S[a]) + _u(S[b]) + _z(e) for a, b, e in cs))
    for i in range(0, len(rows), _B):
        q = rows[i:i + _B]
        p = _u(len(q)) + _u(q[0][0]) + b"".join(_u(y[0] - x[0]) for x, y in zip(q, q[1:]))
        p += b"".join(_u(S[r[1]]) for r in q)
        for j in range(len(cs)):
            v = [r[2][j] for r in q]
            p += _z(v[0]) + b"".join(_z(y - x) for x, y in zip(v, v[1:]))
        o += _ch(b"DATA", p)
    o += _ch(b"END ", _u(len(rows)))
    return bytes(o)


if __name__ == "__main__":
    if len(_s.argv) != 3:
        _s.exit("usage: klpack.py DUMP.csv OUT.kla")
    open(_s.argv[2], "wb").write(pack(*_rd(_s.argv[1])))
