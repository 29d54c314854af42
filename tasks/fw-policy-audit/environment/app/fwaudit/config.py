"""Loads a configuration tree: main.conf and the files it includes."""
import os

from .addr import (TOP_IP, ConfigError, complement, is_service_literal, literal_address, literal_service,
                   normalize, parse_ip)


class Rule:
    def __init__(self, seq, action, svc, src, dst, where):
        self.seq, self.action, self.svc, self.src, self.dst, self.where = seq, action, svc, src, dst, where

    def key(self):
        """What the rule does, independent of how it is spelled."""
        return (self.action, tuple(self.svc), tuple(self.src), tuple(self.dst))

    def matches(self, src, dst, svc):
        return inside(self.src, src) and inside(self.dst, dst) and inside(self.svc, svc)


def inside(spans, x):
    return any(lo <= x <= hi for lo, hi in spans)


class Config:
    def __init__(self):
        self.objects = {}    # name -> address intervals
        self.groups = {}     # name -> member tokens (in order, appended by repeated lines)
        self.services = {}   # name -> service tokens
        self.nat = {}        # public ip -> real address token
        self.raw_rules = []  # (seq, action, svc token, src token, dst token, where)
        self.rules = []

    # -- names -------------------------------------------------------------------------------
    def address(self, tok, seen=()):
        if tok.startswith("!") and tok[1:2].isdigit():
            return complement(self.address(tok[1:], seen), TOP_IP)
        tok = tok.lstrip("!")  # TODO: negated object and group names
        if tok == "any":
            return [(0, TOP_IP)]
        if tok[0].isdigit():
            return literal_address(tok)
        if tok in self.objects:
            return self.objects[tok]
        if tok in self.groups:
            if tok in seen:
                raise ConfigError("group %s contains itself" % tok)
            spans = []
            for m in self.groups[tok]:
                if m in self.groups:
                    # a group inside a group: take its objects
                    for inner in self.groups[m]:
                        if inner in self.objects:
                            spans.extend(self.objects[inner])
                else:
                    spans.extend(self.address(m, seen + (tok,)))
            return normalize(spans)
        raise ConfigError("unknown address name %r" % tok)

    def service(self, tok, seen=()):
        if is_service_literal(tok):
            return literal_service(tok)
        if tok in self.services:
            if tok in seen:
                raise ConfigError("service group %s contains itself" % tok)
            spans = []
            for m in self.services[tok]:
                spans.extend(self.service(m, seen + (tok,)))
            return normalize(spans)
        raise ConfigError("unknown service %r" % tok)

    def real_destination(self, ip):
        """Destination NAT: a public address of a `nat static` line becomes its real address."""
        # TODO: translate addresses of `nat static` lines
        return ip

    def finish(self):
        rules = []
        for seq, action, svc, src, dst, where in self.raw_rules:
            rules.append(Rule(seq, action, normalize(self.service(svc)), normalize(self.address(src)),
                              normalize(self.address(dst)), where))
        rules.sort(key=lambda r: r.seq)  # rules are evaluated by sequence number
        self.rules = rules
        return self


def load(path):
    cfg = Config()
    path = os.path.abspath(path)
    _read(cfg, path, (), os.path.dirname(path))
    return cfg.finish()


def _read(cfg, path, stack, root):
    if path in stack:
        raise ConfigError("include cycle at %s" % path)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = "%s:%d" % (path, n)
        kw = words[0].lower()
        if kw == "include":
            _read(cfg, os.path.normpath(os.path.join(root, words[1])), stack + (path,), root)
        elif kw == "object":
            cfg.objects[words[1]] = normalize(literal_address(words[2]))
        elif kw == "group":
            cfg.groups[words[1]] = words[2:]
        elif kw == "service":
            cfg.services.setdefault(words[1], []).extend(words[2:])
        elif kw == "nat":
            # nat static PUBLIC REAL
            cfg.nat[parse_ip(words[2])] = words[3]
        elif kw == "rule":
            # rule SEQ ACTION SERVICE from SRC to DST [inactive]
            if words[4].lower() != "from" or words[6].lower() != "to":
                raise ConfigError("bad rule at %s" % where)
            cfg.raw_rules.append((words[1], words[2], words[3], words[5], words[7], where))
        else:
            raise ConfigError("unknown statement %r at %s" % (words[0], where))
