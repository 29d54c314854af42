"""Seeded firewall configuration series and their answers.

A series is planned as a structured model first (objects with the address sets chosen before their
text, groups, services, NAT, numbered rules, policy statements); every nightly snapshot is the
previous model with a few planned edits. Only then is each snapshot rendered into a tree of
include files. The answers come from the model, never from parsing the rendered text:

* address and service sets are kept as sorted boundary tuples (b0, e0, b1, e1, ...): the set
  holds x when an odd number of boundaries are <= x;
* audit answers by a brute-force sweep over the elementary cells of packet space (every
  boundary of every rule and policy set cuts each axis; one representative per cell), with
  the destination axis held as bit masks;
* query answers by evaluating each packet against the rules one by one.
"""
import bisect, copy

END_IP = 1 << 32          # one past the last address
ICMP = 131072             # the service axis: tcp ports 0..65535, udp 65536 + port, icmp
END_SVC = ICMP + 1


def dotted(n):
    return "%d.%d.%d.%d" % (n >> 24, (n >> 16) & 255, (n >> 8) & 255, n & 255)


def ipn(a, b, c, d):
    return (a << 24) | (b << 16) | (c << 8) | d


def merge(sets):
    """Union of boundary tuples."""
    delta = {}
    for s in sets:
        for i, x in enumerate(s):
            delta[x] = delta.get(x, 0) + (-1 if i % 2 else 1)
    out, depth = [], 0
    for x in sorted(delta):
        before = depth > 0
        depth += delta[x]
        if (depth > 0) != before:
            out.append(x)
    return tuple(out)


def flip(s, end):
    b = list(s)
    b = b[1:] if b and b[0] == 0 else [0] + b
    b = b[:-1] if b and b[-1] == end else b + [end]
    return tuple(b)


def holds(s, x):
    return bisect.bisect_right(s, x) % 2 == 1


def pieces(s):
    return [(s[i], s[i + 1] - 1) for i in range(0, len(s), 2)]


class Model:
    """One snapshot, structured."""

    def __init__(self):
        self.objects = {}    # name -> (text, set)
        self.lits = {}       # literal token -> set (addresses and services)
        self.groups = {}     # name -> [member tokens]
        self.services = {}   # name -> [member tokens]
        self.nat = {}        # public number -> host object name
        self.rules = {}      # seq -> dict(action, svc, src, dst, inactive, file, spell)
        self.split = set()   # groups rendered on two lines

    def addr(self, tok):
        if tok[0] == "!":
            return flip(self.addr(tok[1:]), END_IP)
        if tok == "any":
            return (0, END_IP)
        if tok in self.objects:
            return self.objects[tok][1]
        if tok in self.groups:
            return merge([self.addr(m) for m in self.groups[tok]])
        return self.lits[tok]

    def svc(self, tok):
        if tok in self.services:
            return merge([self.svc(m) for m in self.services[tok]])
        return self.lits[tok]

    def active(self):
        return [(seq, r) for seq, r in sorted(self.rules.items()) if not r["inactive"]]

    def compiled(self):
        return [(seq, r["action"], self.addr(r["src"]), self.addr(r["dst"]), self.svc(r["svc"]))
                for seq, r in self.active()]


def svc_token(model, proto, lo, hi=None, spell_range=False):
    if proto == "icmp":
        tok, s = "icmp", (ICMP, ICMP + 1)
    else:
        base = 0 if proto == "tcp" else 65536
        hi = lo if hi is None else hi
        tok = "%s/%d" % (proto, lo) if lo == hi and not spell_range else "%s/%d-%d" % (proto, lo, hi)
        s = (base + lo, base + hi + 1)
    model.lits[tok] = s
    return tok


def add_literal(model, tok, s):
    model.lits[tok] = s
    return tok


def cidr_text(rng, net, plen, host_bits):
    """A prefix written with (or without) host bits set; the set is the aligned network."""
    size = 1 << (32 - plen)
    shown = net + (rng.randrange(1, size - 1) if host_bits and size > 2 else 0)
    return "%s/%d" % (dotted(shown), plen), (net, net + size)


KNOBS = {
    "queries": dict(snaps=1, edits=(2, 3), extras=(4, 6), hostbits=0.5, split=0.5, cosmetic=0.3),
    "plain": dict(snaps=5, edits=(1, 2), extras=(2, 3), hostbits=0.2, split=0.2, cosmetic=0.1),
    "groups": dict(snaps=5, edits=(1, 3), extras=(3, 5), hostbits=0.9, split=0.8, cosmetic=0.2),
    "changes": dict(snaps=6, edits=(2, 4), extras=(2, 4), hostbits=0.4, split=0.4, cosmetic=0.6),
}


class Series:
    def __init__(self, rng, kind):
        self.rng, self.kind, self.k = rng, kind, KNOBS[kind]
        self.protected = set()
        m = Model()
        self.model = m
        self.world(m)
        self.base_rules(m)
        self.policy = self.make_policy(m)

    # -- the network -----------------------------------------------------------------------
    def world(self, m):
        rng = self.rng
        hb = self.k["hostbits"]
        zones = {"dmz": 1, "app": 2, "db": 3, "mgmt": rng.choice([8, 9])}
        self.zone_net = {}
        for z, third in zones.items():
            net = ipn(10, third, 0, 0)
            text, s = cidr_text(rng, net, 24, rng.random() < hb)
            m.objects[z + "-net"] = (text, s)
            self.zone_net[z] = net
        used = set()

        def host(z, lo=2, hi=250):
            while True:
                n = self.zone_net[z] + rng.randrange(lo, hi)
                if n not in used:
                    used.add(n)
                    return n
        for name, z in (("web1", "dmz"), ("web2", "dmz"), ("web3", "dmz"), ("app1", "app"), ("app2", "app"),
                        ("db1", "db"), ("db2", "db"), ("db3", "db"), ("jump1", "mgmt"), ("ops1", "mgmt")):
            n = host(z)
            m.objects[name] = (dotted(n), (n, n + 1))
        a = rng.randrange(10, 120)
        b = a + rng.randrange(20, 100)
        m.objects["app-pool"] = ("%s-%s" % (dotted(self.zone_net["app"] + a), dotted(self.zone_net["app"] + b)),
                                 (self.zone_net["app"] + a, self.zone_net["app"] + b + 1))
        plen = rng.choice([22, 23, 24, 25, 26])
        pnet = ipn(172, 16, rng.randrange(0, 60) * 4, 0) & ~((1 << (32 - plen)) - 1)
        m.objects["partner-net"] = cidr_text(rng, pnet, plen, rng.random() < hb)
        mon = ipn(198, 51, 100, rng.randrange(2, 250))
        m.objects["monitor"] = (dotted(mon), (mon, mon + 1))
        mgmt_member = "mgmt-net"
        if rng.random() < 0.5:
            mgmt_member = add_literal(m, "10.%d.0.0/24" % zones["mgmt"], m.objects["mgmt-net"][1])
        m.groups["web-servers"] = ["web1", "web2"]
        m.groups["db-servers"] = ["db1", "db2"]
        m.groups["servers"] = ["web-servers", "db-servers", "app1"]
        m.groups["internal"] = ["dmz-net", "app-net", "db-net", mgmt_member]
        m.groups["trusted"] = ["internal", "partner-net"]
        m.groups["admins"] = ["jump1", "monitor"]
        for gname in m.groups:
            if rng.random() < self.k["split"]:
                m.split.add(gname)
        lo = rng.randrange(8000, 8900)
        self.alt = (lo, lo + rng.randrange(10, 99))
        m.services["web"] = [svc_token(m, "tcp", 80), svc_token(m, "tcp", 443)]
        m.services["alt-web"] = [svc_token(m, "tcp", *self.alt)]
        m.services["db"] = [svc_token(m, "tcp", 5432), svc_token(m, "tcp", 3306)]
        m.services["dns"] = [svc_token(m, "udp", 53), svc_token(m, "tcp", 53)]
        m.services["remote"] = [svc_token(m, "tcp", 22), svc_token(m, "tcp", 3389)]
        m.services["all-web"] = ["web", "alt-web"]
        for tok, s in (("ip", (0, END_SVC)), ("tcp", (0, 65536)), ("udp", (65536, ICMP)), ("icmp", (ICMP, ICMP + 1))):
            m.lits[tok] = s
        self.publics = []
        for name in ("web1", "web2", "app1"):
            pub = ipn(203, 0, 113, rng.randrange(2, 250))
            while pub in m.nat:
                pub = ipn(203, 0, 113, rng.randrange(2, 250))
            m.nat[pub] = name
            self.publics.append(pub)

    # -- rules -------------------------------------------------------------------------------
    def rule(self, m, seq, action, svc, src, dst, protect=False, inactive=False):
        m.rules[seq] = dict(action=action, svc=svc, src=src, dst=dst, inactive=inactive,
                            file=self.rng.choice(["main.conf", "acl/base.conf", "acl/extra/more.conf"]),
                            spell=self.rng.choice(["permit", "Permit", "PERMIT"]) if action == "permit"
                            else self.rng.choice(["deny", "Deny", "DENY"]))
        if protect:
            self.protected.add(seq)

    def base_rules(self, m):
        rng = self.rng
        seq = rng.randrange(5, 20)
        plan = [
            ("permit", svc_token(m, "tcp", 443), "monitor", "web1"),          # redundant: a later rule permits it all
            ("deny", "ip", "!internal", "db-net"),                             # negated group
            ("permit", "web", "any", "web-servers"),
            ("permit", "db", "app-net", "db-servers"),
            ("deny", "db", "!app-net", "db-servers"),
            ("deny", svc_token(m, "tcp", 5432), "any", "db1"),                # shadowed by the two above together
            ("permit", "alt-web", "trusted", "dmz-net"),
            ("deny", svc_token(m, "tcp", self.alt[1]), "partner-net", "web1"),  # shadowed: the range's last port
            ("permit", "remote", "admins", "internal"),
            ("permit", "dns", "internal", "any"),
            ("permit", "icmp", "internal", "any"),
            ("deny", svc_token(m, "tcp", 23), "any", "any"),
        ]
        for action, svc, src, dst in plan:
            self.rule(m, seq, action, svc, src, dst, protect=True)
            seq += rng.randrange(6, 16)
        for _ in range(rng.randint(*self.k["extras"])):
            self.rule(m, seq, *self.random_rule(m))
            seq += rng.randrange(6, 16)
        self.rule(m, max(seq, 1000) + rng.randrange(0, 50) * 10, "deny", "ip", "any", "any", protect=True)
        if self.kind == "queries":
            # A rule written against a public (pre-NAT) address: translated traffic never meets it.
            self.rule(m, rng.randrange(1, 5), "deny", "web", "any", add_literal(m, dotted(self.publics[0]),
                                                                                (self.publics[0], self.publics[0] + 1)))

    def random_net(self, m, negate=0.15):
        rng = self.rng
        r = rng.random()
        if r < 0.45:
            tok = rng.choice(["web1", "web2", "app1", "app2", "db2", "jump1", "ops1", "app-pool", "partner-net",
                              "dmz-net", "app-net", "servers", "web-servers", "internal", "monitor"])
        elif r < 0.7:
            z = rng.choice(sorted(self.zone_net))
            plen = rng.choice([25, 26, 27, 28])
            net = self.zone_net[z] + rng.randrange(0, 1 << (plen - 24)) * (1 << (32 - plen))
            text, s = cidr_text(rng, net, plen, rng.random() < self.k["hostbits"])
            tok = add_literal(m, text, s)
        elif r < 0.85:
            z = rng.choice(sorted(self.zone_net))
            a = rng.randrange(2, 200)
            b = a + rng.randrange(0, 50)
            tok = add_literal(m, "%s-%s" % (dotted(self.zone_net[z] + a), dotted(self.zone_net[z] + b)),
                              (self.zone_net[z] + a, self.zone_net[z] + b + 1))
        else:
            tok = "any"
        if tok != "any" and rng.random() < negate:
            tok = "!" + tok
        return tok

    def random_svc(self, m):
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            return rng.choice(["web", "db", "dns", "remote", "alt-web", "all-web", "icmp", "tcp"])
        proto = rng.choice(["tcp", "tcp", "udp"])
        if r < 0.6:
            return svc_token(m, proto, rng.choice([22, 25, 80, 123, 161, 443, 514, 8080, self.alt[0], self.alt[1]]))
        lo = rng.choice([1000, 1024, 2000, 5000, 8000, self.alt[0] - 5, self.alt[1]])
        return svc_token(m, proto, lo, lo + rng.randrange(0, 600))

    def random_rule(self, m):
        rng = self.rng
        neg = 0.35 if self.kind == "groups" else 0.12
        return (rng.choice(["permit", "permit", "deny"]), self.random_svc(m), self.random_net(m, neg),
                self.random_net(m, neg))

    # -- policy ------------------------------------------------------------------------------
    def make_policy(self, m):
        rng = self.rng
        pool = [
            ("forbid", "remote", "!trusted", "internal"),
            ("forbid", "ip", "!internal", "db-net"),
            ("require", "web", "any", "web-servers"),
            ("require", svc_token(m, "tcp", 5432), "app-net", "db-servers"),
            ("forbid", svc_token(m, "tcp", 23), "any", "any"),
            ("forbid", "alt-web", "!internal", "app-net"),
            ("require", "dns", "internal", "any"),
            ("forbid", svc_token(m, "udp", 161, 162, spell_range=True), "!trusted", "any"),
            ("require", "icmp", "mgmt-net", "servers"),
        ]
        chosen = sorted(rng.sample(range(len(pool)), rng.randint(6, 8)))
        out = []
        for i, c in enumerate(chosen):
            out.append(("%s-%d" % (rng.choice(["P", "SEC", "POL"]), i + 1),) + pool[c])
        return out

    # -- nightly edits -------------------------------------------------------------------------
    def free_seq(self, m, lo, hi):
        while True:
            s = self.rng.randrange(lo, hi)
            if s not in m.rules:
                return s

    def edit(self, m, must_group):
        rng = self.rng
        kinds = ["add", "add_violation", "remove", "reservice", "toggle", "object", "nat"]
        kind = "group" if must_group else rng.choice(kinds)
        loose = [s for s in sorted(m.rules) if s not in self.protected]
        if kind in ("remove", "reservice", "toggle") and not loose:
            kind = "add"
        if kind == "add":
            top = max(m.rules)
            self.rule(m, self.free_seq(m, 1, top), *self.random_rule(m))
        elif kind == "add_violation":
            action, svc, src, dst = rng.choice([
                ("permit", svc_token(m, "tcp", 22), "any", rng.choice(["jump1", "ops1", "app2"])),
                ("permit", svc_token(m, "tcp", 5432), "partner-net", "db2"),
                ("deny", svc_token(m, "tcp", 443), "partner-net", "web2"),
                ("permit", "tcp", "ops1", "app-net"),
                ("permit", svc_token(m, "tcp", self.alt[0]), "monitor", "app1"),
                ("permit", svc_token(m, "udp", 161), "any", "ops1"),
                ("deny", "icmp", "jump1", "app1"),
            ])
            self.rule(m, self.free_seq(m, 1, 60), action, svc, src, dst)
        elif kind == "remove":
            del m.rules[rng.choice(loose)]
        elif kind == "reservice":
            m.rules[rng.choice(loose)]["svc"] = self.random_svc(m)
        elif kind == "toggle":
            r = m.rules[rng.choice(loose)]
            r["inactive"] = not r["inactive"]
        elif kind == "group":
            gname, pool = rng.choice([("web-servers", ["web3", "app2"]), ("db-servers", ["db3", "ops1"]),
                                      ("admins", ["monitor", "ops1", "partner-net"])])
            members = m.groups[gname]
            cand = [x for x in pool if x in members and len(members) > 1] + [x for x in pool if x not in members]
            x = rng.choice(cand)
            if x in members:
                members.remove(x)
            else:
                members.append(x)
        elif kind == "object":
            name = rng.choice(["ops1", "web3", "db3"])
            text, s = m.objects[name]
            n = s[0] ^ rng.randrange(1, 8)
            m.objects[name] = (dotted(n), (n, n + 1))
        elif kind == "nat":
            pub = rng.choice(sorted(m.nat))
            m.nat[pub] = rng.choice(["web1", "web2", "web3", "app1", "app2"])
        return kind

    def cosmetic(self, m):
        """Edits that change the text but not what any rule matches."""
        rng = self.rng
        seq = rng.choice(sorted(m.rules))
        r = m.rules[seq]
        what = rng.choice(["move", "respell", "literal", "case"])
        if what == "move":
            r["file"] = rng.choice([f for f in ("main.conf", "acl/base.conf", "acl/extra/more.conf") if f != r["file"]])
        elif what == "respell" and "/" in r["svc"]:
            proto, ports = r["svc"].split("/")
            lo, _, hi = ports.partition("-")
            if hi and hi == lo:
                r["svc"] = svc_token(m, proto, int(lo))
            elif not hi:
                r["svc"] = svc_token(m, proto, int(lo), int(lo), spell_range=True)
        elif what == "literal":
            for side in ("src", "dst"):
                tok = r[side]
                if tok in m.objects and tok != "partner-net":
                    lo, end = m.objects[tok][1]
                    text = dotted(lo) if end - lo == 1 else "%s-%s" % (dotted(lo), dotted(end - 1))
                    r[side] = add_literal(m, text, (lo, end))
                    break
        else:
            r["spell"] = r["spell"].swapcase() if rng.random() < 0.5 else r["spell"].capitalize()

    def snapshots(self):
        """[(name, model)]: the first is the planned base, each next one the previous with edits."""
        rng = self.rng
        day = rng.randrange(1, 10)
        out = [("2026-11-%02d" % day, copy.deepcopy(self.model))]
        m = self.model
        for i in range(1, self.k["snaps"]):
            m = copy.deepcopy(m)
            n = rng.randint(*self.k["edits"])
            for j in range(n):
                self.edit(m, must_group=(j == 0))
            if rng.random() < self.k["cosmetic"] or self.kind == "changes":
                self.cosmetic(m)
            day += rng.randrange(1, 3)
            out.append(("2026-11-%02d" % day, m))
        return out


# -- rendering -------------------------------------------------------------------------------------
def render(rng, m):
    """The model as a tree of include files: {relative path: text}."""
    files = {"main.conf": [], "objects.conf": [], "services.conf": [], "nat.conf": [], "acl/base.conf": [],
             "acl/extra/more.conf": [], "shared/groups.conf": []}
    for name in sorted(m.objects, key=lambda _: rng.random()):
        files["objects.conf"].append("object %s %s" % (name, m.objects[name][0]))
    for name in sorted(m.services, key=lambda _: rng.random()):
        files["services.conf"].append("service %s %s" % (name, " ".join(m.services[name])))
    for name in sorted(m.groups, key=lambda _: rng.random()):
        mem = m.groups[name]
        if name in m.split and len(mem) > 1:
            cut = rng.randrange(1, len(mem))
            files["shared/groups.conf"].append("group %s %s" % (name, " ".join(mem[:cut])))
            files[rng.choice(["shared/groups.conf", "acl/base.conf", "objects.conf"])].append(
                "group %s %s   # continued" % (name, " ".join(mem[cut:])))
        else:
            files["shared/groups.conf"].append("group %s %s" % (name, " ".join(mem)))
    for pub in sorted(m.nat):
        files["nat.conf"].append("nat static %s %s" % (dotted(pub), m.nat[pub]))
    for seq in sorted(m.rules, key=lambda _: rng.random()):
        r = m.rules[seq]
        sep = rng.choice([" ", "  ", "\t"])
        line = sep.join(["rule", str(seq), r["spell"], r["svc"], "from", r["src"], "to", r["dst"]])
        if r["inactive"]:
            line += " inactive"
        if rng.random() < 0.2:
            line += "  # ticket CHG-%d" % rng.randrange(1000, 9999)
        files[r["file"]].append(line)
    for f in files:
        if rng.random() < 0.5:
            files[f].insert(rng.randrange(0, len(files[f]) + 1), "")
        if rng.random() < 0.5:
            files[f].insert(0, "# %s -- managed by netops" % f)
    main = files["main.conf"]
    for inc in ("objects.conf", "services.conf", "acl/base.conf", "nat.conf"):
        main.insert(rng.randrange(0, len(main) + 1), "include %s" % inc)
    base = files["acl/base.conf"]
    base.insert(rng.randrange(0, len(base) + 1), "include extra/more.conf")
    more = files["acl/extra/more.conf"]
    more.insert(rng.randrange(0, len(more) + 1), "include ../../shared/groups.conf")
    return {p: ("\n".join(lines) + "\n").encode() for p, lines in files.items()}


def render_policy(rng, policy):
    lines = ["# Security policy: each statement is checked against every snapshot", ""]
    for sid, kind, svc, src, dst in policy:
        lines.append("%s %s %s from %s to %s" % (sid, kind, svc, src, dst))
    return ("\n".join(lines) + "\n").encode()


# -- answers ---------------------------------------------------------------------------------------
def cuts(sets, end):
    pts = {0}
    for s in sets:
        pts.update(x for x in s if x < end)
    return sorted(pts)


def bits(s, reps):
    v = 0
    for i, x in enumerate(reps):
        if holds(s, x):
            v |= 1 << i
    return v


def audit_truth(m, policy):
    """(violations, shadowed, redundant) by a sweep over the elementary cells of packet space."""
    rules = m.compiled()
    pol = [(sid, kind, m.addr(src), m.addr(dst), m.svc(svc)) for sid, kind, svc, src, dst in policy]
    srcs = cuts([r[2] for r in rules] + [p[2] for p in pol], END_IP)
    dsts = cuts([r[3] for r in rules] + [p[3] for p in pol], END_IP)
    svcs = cuts([r[4] for r in rules] + [p[4] for p in pol], END_SVC)
    rs = [(seq, act == "permit", bits(s, srcs), bits(d, dsts), bits(v, svcs)) for seq, act, s, d, v in rules]
    ps = [(sid, kind, bits(s, srcs), bits(d, dsts), bits(v, svcs)) for sid, kind, s, d, v in pol]
    full = (1 << len(dsts)) - 1
    decides, keeps, bad = set(), set(), set()
    for vi in range(len(svcs)):
        vb = 1 << vi
        for si in range(len(srcs)):
            sb = 1 << si
            live = [r for r in rs if r[4] & vb and r[2] & sb]
            left, allowed, took = full, 0, []
            for r in live:
                got = left & r[3]
                took.append(got)
                if got:
                    left &= ~got
                    if r[1]:
                        allowed |= got
            for i, r in enumerate(live):
                if not took[i]:
                    continue
                decides.add(r[0])
                if r[0] in keeps:
                    continue
                rest = took[i]
                for later in live[i + 1:]:
                    if rest & later[3] and later[1] != r[1]:
                        keeps.add(r[0])
                        break
                    rest &= ~later[3]
                    if not rest:
                        break
                else:
                    if rest and r[1]:
                        keeps.add(r[0])
            for sid, kind, s, d, v in ps:
                if v & vb and s & sb:
                    if (kind == "forbid" and allowed & d) or (kind == "require" and d & ~allowed):
                        bad.add(sid)
    seqs = [r[0] for r in rs]
    shadowed = sorted(s for s in seqs if s not in decides)
    redundant = sorted(s for s in seqs if s in decides and s not in keeps)
    return sorted(bad), shadowed, redundant


def change_truth(old, new):
    def table(m):
        return {seq: (act, s, d, v) for seq, act, s, d, v in m.compiled()} if m else {}
    a, b = table(old), table(new)
    return (sorted(set(b) - set(a)), sorted(set(a) - set(b)), sorted(s for s in b if s in a and a[s] != b[s]))


def first_match(m, src, dst, svc):
    for seq, act, s, d, v in m.compiled():
        if holds(s, src) and holds(d, dst) and holds(v, svc):
            return ("allow" if act == "permit" else "deny"), str(seq)
    return "deny", "default"


def make_queries(rng, series, m, n):
    """[(id, src, dst, proto, port, verdict, rule, real_dst)] aimed at rule and range edges."""
    rules = m.compiled()
    out = []

    def point(s, edge):
        spans = pieces(s)
        lo, hi = rng.choice(spans)
        pick = rng.choice([lo, hi, lo + 1, hi - 1]) if edge else rng.randrange(lo, hi + 1)
        return min(max(pick, 0), END_IP - 1)

    def svc_point(v):
        lo, hi = rng.choice(pieces(v))
        x = rng.choice([lo, hi, hi + 1, lo - 1, rng.randrange(lo, hi + 1)])
        return min(max(x, 0), ICMP)
    while len(out) < n:
        r = rng.random()
        seq, act, s, d, v = rng.choice(rules)
        src = point(s, rng.random() < 0.5)
        if r < 0.2:
            pub = rng.choice(series.publics)
            dst_shown, real = pub, m.objects[m.nat[pub]][1][0]
            x = rng.choice([80, 443, 22, 8080])
        else:
            real = point(d, rng.random() < 0.6)
            dst_shown = real
            x = svc_point(v)
            if real in m.nat:   # a public address picked by chance is translated like any other
                real = m.objects[m.nat[real]][1][0]
        if x == ICMP:
            proto, port = "icmp", ""
        elif x >= 65536:
            proto, port = "udp", str(x - 65536)
        else:
            proto, port = "tcp", str(x)
        verdict, rule = first_match(m, src, real, x)
        out.append(("q%03d" % (len(out) + 1), dotted(src), dotted(dst_shown), proto, port, verdict, rule, dotted(real)))
    return out


def build_series(rng, kind):
    """({path: bytes}, [(snapshot name, violations, shadowed, redundant, added, removed, modified)])."""
    series = Series(rng, kind)
    files = {"policy.txt": render_policy(rng, series.policy)}
    answers, prev = [], None
    for name, m in series.snapshots():
        for path, data in render(rng, m).items():
            files["snapshots/%s/%s" % (name, path)] = data
        answers.append((name,) + audit_truth(m, series.policy) + change_truth(prev, m))
        prev = m
    return files, answers


def build_queries(rng, n=40):
    """({path: bytes}, [query rows with answers]) for one configuration."""
    series = Series(rng, "queries")
    m = series.model
    for j in range(rng.randint(*series.k["edits"])):
        series.edit(m, must_group=(j == 0))
    files = {"config/" + p: d for p, d in render(rng, m).items()}
    qs = make_queries(rng, series, m, n)
    lines = ["id,src,dst,proto,port"] + [",".join(q[:5]) for q in qs]
    files["queries.csv"] = ("\n".join(lines) + "\n").encode()
    return files, qs
