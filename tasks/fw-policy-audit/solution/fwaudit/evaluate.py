"""First-match evaluation of one packet."""
from .addr import parse_ip, service_point


def decide(cfg, src, dst, proto, port):
    """Returns (verdict, deciding rule seq or None, real destination number)."""
    s = parse_ip(src)
    d = cfg.real_destination(parse_ip(dst))
    v = service_point(proto, port if proto != "icmp" else 0)
    for rule in cfg.rules:
        if rule.matches(s, d, v):
            return ("allow" if rule.action == "permit" else "deny"), rule.seq, d
    return "deny", None, d
