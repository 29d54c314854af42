"""Addresses and services as sorted lists of closed integer intervals.

Addresses are IPv4 numbers in [0, 2**32 - 1]. Services live on one line: tcp ports are
0..65535, udp ports 65536 + port, and icmp the single point ICMP.
"""

TOP_IP = (1 << 32) - 1
UDP = 65536
ICMP = 2 * 65536
TOP_SVC = ICMP
PROTO_BASE = {"tcp": 0, "udp": UDP}


class ConfigError(ValueError):
    pass


def parse_ip(text):
    parts = text.split(".")
    if len(parts) != 4 or not all(p.isdigit() and int(p) < 256 for p in parts):
        raise ConfigError("bad address %r" % text)
    n = 0
    for p in parts:
        n = n * 256 + int(p)
    return n


def format_ip(n):
    return ".".join(str((n >> s) & 255) for s in (24, 16, 8, 0))


def normalize(spans):
    """Sorted, merged intervals (touching intervals join)."""
    out = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def complement(spans, top):
    out, nxt = [], 0
    for lo, hi in normalize(spans):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= top:
        out.append((nxt, top))
    return out


def literal_address(text):
    """One address literal: a.b.c.d, a.b.c.d/len (host bits cleared) or a.b.c.d-e.f.g.h."""
    if "/" in text:
        ip, plen = text.split("/", 1)
        if not plen.isdigit() or int(plen) > 32:
            raise ConfigError("bad prefix %r" % text)
        size = 1 << (32 - int(plen))
        lo = parse_ip(ip) & ~(size - 1) & TOP_IP
        return [(lo, lo + size - 1)]
    if "-" in text:
        a, b = text.split("-", 1)
        lo, hi = parse_ip(a), parse_ip(b)
        if lo > hi:
            raise ConfigError("empty range %r" % text)
        return [(lo, hi)]
    n = parse_ip(text)
    return [(n, n)]


def is_service_literal(tok):
    return tok in ("ip", "icmp", "tcp", "udp") or tok.startswith(("tcp/", "udp/"))


def literal_service(tok):
    if tok == "ip":
        return [(0, TOP_SVC)]
    if tok == "icmp":
        return [(ICMP, ICMP)]
    if tok in PROTO_BASE:
        base = PROTO_BASE[tok]
        return [(base, base + 65535)]
    proto, ports = tok.split("/", 1)
    base = PROTO_BASE[proto]
    lo, _, hi = ports.partition("-")
    lo = int(lo)
    hi = int(hi) if hi else lo
    if not 0 <= lo <= hi <= 65535:
        raise ConfigError("bad port range %r" % tok)
    return [(base + lo, base + hi)]


def service_point(proto, port):
    if proto == "icmp":
        return ICMP
    return PROTO_BASE[proto] + int(port)
