"""Hidden hosts for auth-log-forensics, built by construction.

A host is planned first as a list of events with their UTC second (and a sub-second fraction that
only the rendering shows), each tagged with what it means (a login, a failure worth N, a closing
line of a given session, a root escalation, a persistence step). The answers (sessions, incident
timeline, alerts) are derived from that plan; only then is every event rendered into one of the
mixed log formats (classic syslog in host local time without a year, RFC 3339 stamps with their own
offset, journald JSON export) and split over rotated files. Nothing here parses a log line.
"""
import datetime as dt
import gzip
import io
import json
import math

UTC = dt.timezone.utc
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
LEGIT = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy")
PROBED = ("root", "admin", "oracle", "test", "ubuntu", "postgres", "git", "pi", "guest", "user1")
METHODS = ("password", "publickey", "keyboard-interactive/pam")
KEYS = ("RSA SHA256:Xq3vJ0cbYz1oP9aTqJdWlq2m4X0FqC8n0b1aHc2VvQk", "ED25519 SHA256:m7Rr0dTqg1sKx4y2uW3c9pLh5nZb8aVj6eQf1oGt2Ys",
        "ECDSA SHA256:Pq9wErTy6uIo0pAs1dFg2hJk3lZx4cVb5nM7qW8eR9t")
# Locations for the GeoIP table: (country, lat, lon).
PLACES = (("DE", 52.52, 13.405), ("US", 40.7128, -74.006), ("JP", 35.6762, 139.6503), ("BR", -23.5505, -46.6333),
          ("AU", -33.8688, 151.2093), ("FR", 48.8566, 2.3522), ("NL", 52.3676, 4.9041), ("IN", 19.076, 72.8777),
          ("ZA", -26.2041, 28.0473), ("CA", 43.6532, -79.3832))


def haversine(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[1], a[2], b[1], b[2]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


class Ev:
    """One planted log event. `tag` says what it means to the answers; `text` is the message."""
    __slots__ = ("t", "frac", "prog", "pid", "text", "tag", "info", "lid", "seq", "raw_bytes")

    def __init__(self, t, prog, pid, text, tag=None, **info):
        self.t, self.prog, self.pid, self.text, self.tag, self.info = t, prog, pid, text, tag, info
        self.frac, self.lid, self.seq, self.raw_bytes = 0, None, 0, False


class Host:
    def __init__(self, rng, kind):
        self.rng, self.kind = rng, kind
        self.events = []
        self.year = rng.randint(2024, 2028)
        self.offset_min = rng.choice((-480, -420, -300, -210, 60, 120, 180, 330, 345, 540, 600))
        start = dt.datetime(self.year - 1, 12, rng.randint(17, 21), rng.randint(0, 23), 0, tzinfo=UTC)
        self.t0 = int(start.timestamp())
        self.t_end = int(dt.datetime(self.year, 1, rng.randint(3, 5), 6, 0, tzinfo=UTC).timestamp())
        self.collected = self.t_end + rng.randint(3600, 20000)
        self.name = rng.choice(("web01", "bastion", "db-2", "ci-runner", "mail", "edge7"))
        self.used_pids = set()
        self.used_ips = set()
        self.used_ports = set()
        self.bf_n = rng.randint(4, 8)
        self.bf_w = rng.choice((5, 10, 15, 20))
        self.kmh = rng.choice((800, 900, 1000))
        ws = rng.choice(("07:00", "08:00", "08:30", "09:00"))
        we = rng.choice(("17:00", "18:00", "18:30", "19:00"))
        self.work = (ws, we)
        self.geo = []  # (network, place, prefixlen)

    # ---- identifiers -------------------------------------------------------------------------
    def pid(self):
        while True:
            p = self.rng.randint(900, 65000)
            if p not in self.used_pids:
                self.used_pids.add(p)
                return p

    def port(self):
        while True:
            p = self.rng.randint(32768, 65535)
            if p not in self.used_ports:
                self.used_ports.add(p)
                return p

    def ipv4(self, first=None):
        while True:
            a = first if first is not None else self.rng.choice((45, 61, 77, 91, 103, 118, 141, 176, 185, 193, 203, 212))
            ip = "%d.%d.%d.%d" % (a, self.rng.randint(0, 255), self.rng.randint(0, 255), self.rng.randint(1, 254))
            if ip not in self.used_ips:
                self.used_ips.add(ip)
                return ip

    def ipv6(self):
        while True:
            ip = canon6("2001:db8:%x:%x::%x" % (self.rng.randint(1, 0xffff), self.rng.randint(0, 0xff), self.rng.randint(1, 0xfff)))
            if ip not in self.used_ips:
                self.used_ips.add(ip)
                return ip

    def source(self, v6_share=0.3):
        return self.ipv6() if self.rng.random() < v6_share else self.ipv4()

    def spell(self, ip):
        """The address as sshd may print it: IPv6 expanded/upper-case/with a scope, IPv4 mapped."""
        r = self.rng.random()
        if ":" in ip:
            if r < 0.3:
                return ip + self.rng.choice(("%eth0", "%ens3", "%2"))
            if r < 0.5:
                return expand6(ip)
            if r < 0.65:
                return ip.upper()
            return ip
        if self.kind != "plain" and r < 0.15:
            return "::ffff:" + ip
        return ip

    def add(self, ev):
        self.events.append(ev)
        ev.seq = len(self.events)
        return ev

    def free_time(self):
        return self.rng.randint(self.t0 + 60, self.t_end - 60)

    # ---- scenarios -------------------------------------------------------------------------
    def session(self, user, src, t, close="both", pid=None, method=None, length=None, sudo=()):
        pid = pid or self.pid()
        method = method or self.rng.choice(METHODS)
        port = self.port()
        shown = self.spell(src)
        text = "Accepted %s for %s from %s port %d ssh2" % (method, user, shown, port)
        if method == "publickey":
            text += ": " + self.rng.choice(KEYS)
        login = self.add(Ev(t, "sshd", pid, text, "login", user=user, src=src, port=port, method=method))
        opened = ("pam_unix(sshd:session): session opened for user %s(uid=%d) by (uid=0)" % (user, 1000 + LEGIT.index(user) if user in LEGIT else 0)
                  if self.rng.random() < 0.6 else "pam_unix(sshd:session): session opened for user %s by (uid=0)" % user)
        self.add(Ev(t + self.rng.randint(0, 1), "sshd", pid, opened))
        length = length or self.rng.randint(60, 5400)
        for i, (dtm, cmd, runas) in enumerate(sudo):
            self.sudo(user, t + dtm, cmd, runas)
        end = t + length
        rec = {"login": login, "end": None, "close": None}
        if close == "open":
            return rec
        disc = "Disconnected from user %s %s port %d" % (user, shown, port)
        closed = "pam_unix(sshd:session): session closed for user %s" % user
        recv = "Received disconnect from %s port %d:11: disconnected by user" % (shown, port)
        if close == "both":
            self.add(Ev(end, "sshd", pid, recv))
            self.add(Ev(end, "sshd", pid, disc))
            c = self.add(Ev(end + self.rng.randint(1, 3), "sshd", pid, closed))
        elif close == "closed_first":
            c = self.add(Ev(end, "sshd", pid, closed))
            self.add(Ev(end + self.rng.randint(1, 2), "sshd", pid, disc))
        elif close == "closed_only":
            c = self.add(Ev(end, "sshd", pid, closed))
        else:  # disconnect only
            self.add(Ev(end, "sshd", pid, recv))
            c = self.add(Ev(end, "sshd", pid, disc))
        rec["end"], rec["close"] = c.t, c
        return rec

    def sudo(self, user, t, cmd, runas="root"):
        tty = "pts/%d" % self.rng.randint(0, 5)
        pad = self.rng.choice(("", "    ", "  "))
        text = "%s%s : TTY=%s ; PWD=/home/%s ; USER=%s ; COMMAND=%s" % (pad, user, tty, user, runas, cmd)
        ev = self.add(Ev(t, "sudo", self.pid(), text, "root" if runas == "root" else None, user=user,
                         keys="authorized_keys" in cmd))
        self.add(Ev(t, "sudo", ev.pid, "pam_unix(sudo:session): session opened for user %s(uid=0) by %s(uid=1000)" % (runas, user)))
        return ev

    def su(self, user, t):
        pid = self.pid()
        if self.rng.random() < 0.5:
            ev = self.add(Ev(t, "su", pid, "(to root) %s on pts/%d" % (user, self.rng.randint(0, 5)), "root", user=user, keys=False))
        else:
            ev = self.add(Ev(t, "su", pid, "Successful su for root by %s" % user, "root", user=user, keys=False))
        self.add(Ev(t, "su", pid, "pam_unix(su:session): session opened for user root(uid=0) by %s(uid=1000)" % user))
        return ev

    def failure(self, user, src, t, repeat=0, invalid=None):
        """A failed login (or a `message repeated` line worth `repeat` failures)."""
        pid = self.pid()
        port = self.port()
        invalid = (user not in LEGIT and user != "root") if invalid is None else invalid
        method = "password" if self.rng.random() < 0.85 else "keyboard-interactive/pam"
        core = "Failed %s for %s%s from %s port %d ssh2" % (method, "invalid user " if invalid else "", user, self.spell(src), port)
        if repeat:
            return self.add(Ev(t, "sshd", pid, "message repeated %d times: [ %s]" % (repeat, core), "fail", n=repeat, user=user, src=src))
        return self.add(Ev(t, "sshd", pid, core, "fail", n=1, user=user, src=src))

    def invalid(self, user, src, t):
        pid = self.pid()
        if self.rng.random() < 0.5:
            text = "Invalid user %s from %s port %d" % (user, self.spell(src), self.port())
        else:
            text = "Invalid user %s from %s" % (user, self.spell(src))
        return self.add(Ev(t, "sshd", pid, text))

    def noise(self, n):
        for _ in range(n):
            t = self.free_time()
            r = self.rng.random()
            if r < 0.25:
                p = self.pid()
                self.add(Ev(t, "CRON", p, "pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)"))
                self.add(Ev(t + 1, "CRON", p, "pam_unix(cron:session): session closed for user root"))
            elif r < 0.45:
                ip = self.source(0.2)
                self.add(Ev(t, "sshd", self.pid(), "Connection closed by %s port %d [preauth]" % (self.spell(ip), self.port())))
            elif r < 0.6:
                ip = self.source(0.2)
                self.add(Ev(t, "sshd", self.pid(), "pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost=%s  user=root" % ip))
            elif r < 0.7:
                self.add(Ev(t, "systemd-logind", self.rng.randint(400, 800), "New session %d of user %s." % (self.rng.randint(10, 999), self.rng.choice(LEGIT))))
            elif r < 0.8:
                u = self.rng.choice(LEGIT)
                self.add(Ev(t, "sudo", self.pid(), "%s : 3 incorrect password attempts ; TTY=pts/1 ; PWD=/home/%s ; USER=root ; COMMAND=/usr/bin/apt update" % (u, u)))
            elif r < 0.9:
                u = self.rng.choice(LEGIT)
                self.add(Ev(t, "su", self.pid(), "FAILED su for root by %s" % u))
            else:
                u = self.rng.choice(LEGIT)
                self.add(Ev(t, "sudo", self.pid(), "%s : TTY=pts/2 ; PWD=/srv ; USER=www-data ; COMMAND=/usr/bin/php artisan migrate" % u, None))

    def scanner(self, n_sources, per):
        for _ in range(n_sources):
            ip = self.source(0.3)
            t = self.free_time()
            for _ in range(self.rng.randint(1, per)):
                u = self.rng.choice(PROBED)
                if u not in LEGIT and self.rng.random() < 0.5:
                    self.invalid(u, ip, t)
                self.failure(u, ip, t + self.rng.randint(0, 2))
                t += self.rng.randint(2, 40)

    def legit_sessions(self, n, users, reuse=False):
        recs = []
        for _ in range(n):
            u = self.rng.choice(users)
            t = self.free_time()
            close = self.rng.choice(("both", "both", "both", "closed_first", "closed_only", "disc_only"))
            recs.append(self.session(u, self.source(0.35), t, close=close, length=self.rng.randint(60, 9000)))
        return recs

    # ---- geo ---------------------------------------------------------------------------------
    def geo_net(self, place, v6=False, prefix=None):
        """Allocates a fresh network for a place; returns a function giving addresses inside it."""
        if v6:
            a, b = self.rng.randint(0x100, 0xfff), self.rng.randint(0, 0xffff)
            net = "2001:db8:%x::/48" % a
            self.geo.append((net, place))
            return lambda: self._ip_in6(a)
        a, b = self.rng.choice((62, 81, 95, 109, 151, 178, 188, 195, 200, 213)), self.rng.randint(0, 255)
        while any(n.startswith("%d.%d." % (a, b)) for n, _ in self.geo):
            b = self.rng.randint(0, 255)
        net = "%d.%d.0.0/16" % (a, b)
        self.geo.append((net, place))
        return lambda: self.ipv4_in(a, b)

    def ipv4_in(self, a, b, c=None):
        while True:
            ip = "%d.%d.%d.%d" % (a, b, self.rng.randint(0, 255) if c is None else c, self.rng.randint(1, 254))
            if ip not in self.used_ips:
                self.used_ips.add(ip)
                return ip

    def _ip_in6(self, a):
        while True:
            ip = canon6("2001:db8:%x:%x::%x" % (a, self.rng.randint(0, 0xffff), self.rng.randint(1, 0xffff)))
            if ip not in self.used_ips:
                self.used_ips.add(ip)
                return ip


def expand6(ip):
    import ipaddress
    return ipaddress.ip_address(ip).exploded


def canon6(ip):
    """The reported spelling of a planted IPv6 address (RFC 5952 compressed, lower case)."""
    import ipaddress
    return ipaddress.ip_address(ip).compressed


# ---------------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------------

def fmt_offset(m):
    s = "+" if m >= 0 else "-"
    m = abs(m)
    return "%s%02d:%02d" % (s, m // 60, m % 60)


def classic_stamp(t, offset_min):
    d = dt.datetime.fromtimestamp(t, UTC) + dt.timedelta(minutes=offset_min)
    return "%s %2d %02d:%02d:%02d" % (MONTHS[d.month - 1], d.day, d.hour, d.minute, d.second)


def rfc_stamp(t, frac, offset_min):
    d = dt.datetime.fromtimestamp(t, UTC) + dt.timedelta(minutes=offset_min)
    off = "Z" if offset_min == 0 and frac % 2 else fmt_offset(offset_min)
    return "%04d-%02d-%02dT%02d:%02d:%02d.%06d%s" % (d.year, d.month, d.day, d.hour, d.minute, d.second, frac, off)


def render(host, plan):
    """Splits the events over the host's files and writes them; sets each event's line id."""
    rng = host.rng
    evs = sorted(host.events, key=lambda e: (e.t, e.seq))
    for e in evs:
        e.frac = rng.randint(0, 999999)
    names = plan["files"]
    k = len(names)
    cuts = sorted(rng.sample(range(1, len(evs)), k - 1)) if k > 1 else []
    # a cut never separates two events of the same second
    fixed = []
    for c in cuts:
        while 0 < c < len(evs) and evs[c].t == evs[c - 1].t:
            c += 1
        fixed.append(c)
    bounds = [0] + fixed + [len(evs)]
    files = {}
    for i, name in enumerate(names):
        chunk = evs[bounds[i]:bounds[i + 1]]
        style = plan["styles"][i]
        lines = []
        for j, e in enumerate(chunk):
            e.lid = "%s:%d" % (name.split("/")[-1], j + 1)
            tag = "%s[%d]" % (e.prog, e.pid)
            if style == "journal":
                rec = {"__REALTIME_TIMESTAMP": str(e.t * 1000000 + e.frac), "_HOSTNAME": host.name,
                       "SYSLOG_IDENTIFIER": e.prog, "_PID": str(e.pid), "PRIORITY": "6", "_TRANSPORT": "syslog"}
                if rng.random() < 0.12:
                    rec["MESSAGE"] = list(e.text.encode())
                else:
                    rec["MESSAGE"] = e.text
                items = list(rec.items())
                rng.shuffle(items)
                lines.append(json.dumps(dict(items)))
            elif style == "classic":
                lines.append("%s %s %s: %s" % (classic_stamp(e.t, host.offset_min), host.name, tag, e.text))
            else:
                off = style[1]
                lines.append("%s %s %s: %s" % (rfc_stamp(e.t, e.frac, off), host.name, tag, e.text))
        data = ("\n".join(lines) + ("\n" if lines else "")).encode()
        if name.endswith(".gz"):
            buf = io.BytesIO()
            with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as gz:
                gz.write(data)
            data = buf.getvalue()
        files[name] = data
    return files


# ---------------------------------------------------------------------------------------------
# Answers from the plan
# ---------------------------------------------------------------------------------------------

def iso(t):
    return dt.datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def order(host):
    return sorted(host.events, key=lambda e: (e.t, e.seq))


def answer_sessions(recs):
    out = {}
    for r in recs:
        e = r["login"]
        out[e.lid] = (e.info["user"], e.info["src"], str(e.info["port"]), e.info["method"], iso(e.t),
                      iso(r["end"]) if r["end"] is not None else "", r["close"].lid if r["close"] is not None else "")
    return out


def answer_timeline(host, recs):
    evs = order(host)
    fails = {}
    for i, e in enumerate(evs):
        if e.tag == "fail":
            s = fails.setdefault(e.info["src"], [0, i])
            s[0] += e.info["n"]
    src = sorted(fails, key=lambda s: (-fails[s][0], fails[s][1]))[0]
    first = next(i for i, e in enumerate(evs) if e.tag == "fail" and e.info["src"] == src)
    succ = next(i for i, e in enumerate(evs) if i > first and e.tag == "login" and e.info["src"] == src)
    last = max(i for i, e in enumerate(evs) if i < succ and e.tag == "fail" and e.info["src"] == src)
    user = evs[succ].info["user"]
    rows = [("bruteforce_start", evs[first]), ("bruteforce_end", evs[last]), ("first_success", evs[succ])]
    tsucc = evs[succ].t
    esc = [e for e in evs if e.tag == "root" and e.info["user"] == user and e.t >= tsucc]
    rowset = [("bruteforce_start", iso(evs[first].t), evs[first].info["user"], src, evs[first].lid),
              ("bruteforce_end", iso(evs[last].t), evs[last].info["user"], src, evs[last].lid),
              ("first_success", iso(tsucc), user, src, evs[succ].lid)]
    if esc:
        rowset.append(("privilege_escalation", iso(esc[0].t), user, src, esc[0].lid))
    for e in evs:
        if e.t < tsucc:
            continue
        if e.tag == "useradd" or e.tag == "passwd":
            rowset.append(("persistence", iso(e.t), e.info["name"], src, e.lid))
        elif e.tag == "root" and e.info.get("keys"):
            rowset.append(("persistence", iso(e.t), e.info["user"], src, e.lid))
        elif e.tag is None and e.prog == "sudo" and "authorized_keys" in e.text and "COMMAND=" in e.text and "incorrect" not in e.text:
            raise AssertionError("untagged authorized_keys sudo")
    del rows
    return set(rowset)


def lookup(host, ip):
    import ipaddress
    a = ipaddress.ip_address(ip)
    best = None
    for net, place in host.geo:
        n = ipaddress.ip_network(net)
        if a.version == n.version and a in n and (best is None or n.prefixlen > best[0]):
            best = (n.prefixlen, place)
    return best[1] if best else None


def answer_alerts(host):
    evs = order(host)
    out = set()
    wsec = host.bf_w * 60
    for i, e in enumerate(evs):
        if e.tag != "login":
            continue
        src = e.info["src"]
        n = sum(f.info["n"] for f in evs[:i] if f.tag == "fail" and f.info["src"] == src and e.t - wsec <= f.t <= e.t)
        if n >= host.bf_n:
            out.add(("bruteforce", iso(e.t), e.info["user"], src, e.lid))
    prev = {}
    for e in evs:
        if e.tag != "login":
            continue
        place = lookup(host, e.info["src"])
        if place is None:
            continue
        u = e.info["user"]
        if u in prev:
            pt, pp = prev[u]
            km = haversine(pp, place)
            dtt = e.t - pt
            if km > 0 and (dtt == 0 or km / (dtt / 3600.0) > host.kmh):
                out.add(("impossible_travel", iso(e.t), u, e.info["src"], e.lid))
        prev[u] = (e.t, place)
    ws, we = [int(x[:2]) * 3600 + int(x[3:]) * 60 for x in host.work]
    for e in evs:
        if e.tag != "root":
            continue
        loc = dt.datetime.fromtimestamp(e.t, UTC) + dt.timedelta(minutes=host.offset_min)
        sec = loc.hour * 3600 + loc.minute * 60 + loc.second
        inside = loc.weekday() < 5 and ws <= sec < we
        if not inside:
            out.add(("offhours_root", iso(e.t), e.info["user"], "", e.lid))
    return out


# ---------------------------------------------------------------------------------------------
# Host kinds
# ---------------------------------------------------------------------------------------------

def local_to_utc(host, y, m, d, hh, mm, ss):
    return int((dt.datetime(y, m, d, hh, mm, ss, tzinfo=UTC) - dt.timedelta(minutes=host.offset_min)).timestamp())


def plant_attack(host):
    """The incident: a brute force from one source, a success, escalation and persistence."""
    rng = host.rng
    atk = host.source(0.4)
    victim = rng.choice(LEGIT)
    t = rng.randint(host.t0 + 86400 * 3, host.t_end - 86400)
    host.invalid(rng.choice(PROBED[1:]), atk, t - rng.randint(5, 30))  # an Invalid user line opens the attack
    total = 0
    while total < host.bf_n + 6:
        u = rng.choice(PROBED + (victim,))
        if u not in LEGIT and rng.random() < 0.6:
            host.invalid(u, atk, t)
        rep = rng.choice((0, 0, 0, 2, 3, 5))
        host.failure(u, atk, t + 1, repeat=rep)
        total += rep or 1
        t += rng.randint(3, 25)
    host.failure(victim, atk, t)
    t += rng.randint(2, 20)
    acts = []
    d = rng.randint(30, 400)
    acts.append((d, "/usr/bin/id", "postgres"))
    esc = rng.choice(("sudo", "su"))
    d2 = d + rng.randint(10, 200)
    name = rng.choice(("backup2", "sysadm", "svc-mon", "nagios2", "support"))
    rec = host.session(victim, atk, t, close=rng.choice(("both", "closed_first", "open")), length=rng.randint(4000, 8000),
                       method="password", sudo=acts)
    if esc == "sudo":
        host.sudo(victim, t + d2, "/bin/bash")
    else:
        host.su(victim, t + d2)
    d3 = d2 + rng.randint(20, 300)
    uid = rng.randint(1001, 1099)
    host.add(Ev(t + d3, "useradd", host.pid(), "new group: name=%s, GID=%d" % (name, uid)))
    host.add(Ev(t + d3, "useradd", host.pid(), "new user: name=%s, UID=%d, GID=%d, home=/home/%s, shell=/bin/bash, from=/dev/pts/1"
                % (name, uid, uid, name), "useradd", name=name))
    host.add(Ev(t + d3 + rng.randint(3, 30), "passwd", host.pid(), "pam_unix(passwd:chauthtok): password changed for %s" % name,
                "passwd", name=name))
    host.sudo(victim, t + d3 + rng.randint(40, 200), "/usr/bin/tee -a /root/.ssh/authorized_keys")
    # a legitimate admin created a user before the attack: not persistence
    host.add(Ev(t - 86400 - rng.randint(0, 40000), "useradd", host.pid(), "new user: name=intern%d, UID=%d, GID=%d, home=/home/intern, shell=/bin/bash, from=/dev/pts/0"
                % (rng.randint(1, 9), uid + 100, uid + 100), "useradd", name="x"))
    return rec


def plant_reuse(host, recs):
    """Two sessions on one sshd pid; a CRON line with that pid inside the first session."""
    rng = host.rng
    for _ in range(2):
        pid = host.pid()
        u1, u2 = rng.choice(LEGIT), rng.choice(LEGIT)
        t = host.free_time()
        r1 = host.session(u1, host.source(0.4), t, close=rng.choice(("both", "closed_first", "closed_only")), pid=pid, length=rng.randint(300, 900))
        host.add(Ev(t + rng.randint(10, 200), "CRON", pid, "pam_unix(cron:session): session closed for user %s" % u1))
        r2 = host.session(u2, host.source(0.4), r1["end"] + rng.randint(600, 4000), pid=pid,
                          close=rng.choice(("both", "closed_first", "disc_only", "open")))
        recs += [r1, r2]


def plant_bruteforce_edges(host, recs):
    rng = host.rng
    n, w = host.bf_n, host.bf_w * 60
    cases = ["exact", "short_invalid", "outside", "repeat", "late_success"]
    for c in cases:
        src = host.source(0.3)
        u = rng.choice(LEGIT)
        t = rng.randint(host.t0 + 3600, host.t_end - 20000)
        ts = t + w
        if c == "exact":  # n failures, the first exactly W minutes before the success
            times = [t] + sorted(rng.randint(t + 1, ts - 1) for _ in range(n - 2)) + [ts]
            for x in times:
                host.failure(rng.choice(PROBED + (u,)), src, x)
        elif c == "short_invalid":  # n-1 failures and Invalid user lines: no alert
            for x in sorted(rng.randint(t, ts) for _ in range(n - 1)):
                p = rng.choice(PROBED)
                host.invalid(p, src, x)
                host.failure(p, src, x)
        elif c == "outside":  # n failures, the first one second before the window
            times = [t - 1] + sorted(rng.randint(t + 1, ts - 1) for _ in range(n - 1))
            for x in times:
                host.failure(rng.choice(PROBED + (u,)), src, x)
        elif c == "repeat":  # n failures of which most in one `message repeated` line
            host.failure(u, src, t + 5)
            host.failure(u, src, t + 20, repeat=n - 1)
        else:  # the failures come in the same second as the success but after it: n-1 before
            for x in sorted(rng.randint(t, ts - 1) for _ in range(n - 1)):
                host.failure(rng.choice(PROBED), src, x)
        rec = host.session(u, src, ts, close=rng.choice(("both", "closed_first")))
        if c == "late_success":
            host.failure(u, src, ts)
        recs.append(rec)


def plant_travel(host, recs):
    rng = host.rng
    places = rng.sample(PLACES, 6)
    nets = [host.geo_net(p, v6=(i == 5)) for i, p in enumerate(places)]
    # a more specific /24 inside the first /16 belongs to a far place
    first16 = host.geo[0][0]
    a, b = first16.split(".")[:2]
    far = next(p for p in places[1:] if haversine(p, places[0]) > 3000)
    c = rng.randint(0, 255)
    host.geo.append(("%s.%s.%d.0/24" % (a, b, c), far))
    inner = lambda: host.ipv4_in(int(a), int(b), c)
    users = rng.sample(LEGIT, 4)
    for k, u in enumerate(users):
        t = rng.randint(host.t0 + 3600, host.t0 + 86400 * 3)
        seq = []
        p0, p1 = rng.sample(range(5), 2)
        km = haversine(places[p0], places[p1])
        fast = int(km / host.kmh * 3600 * rng.uniform(0.4, 0.8))
        slow = int(km / host.kmh * 3600 * rng.uniform(1.3, 2.5)) + 60
        seq.append((t, nets[p0]()))
        seq.append((t + max(fast, 30), nets[p1]()))              # too fast: alert
        t2 = t + max(fast, 30) + slow
        seq.append((t2, nets[p0]()))                             # slow enough: no alert
        t3 = t2 + rng.randint(600, 1800)
        seq.append((t3, host.ipv4()))                            # unknown location: skipped
        if k != 3:
            seq.append((t3 + rng.randint(60, 600), inner()))     # /24 far place, minutes later: alert
        else:
            seq.append((t3 + rng.randint(60, 600), nets[5]()))   # IPv6 place
        seq.append((seq[-1][0] + rng.randint(10, 50), seq[-1][1] if rng.random() < 0.5 else nets[p1]()))
        for tt, ip in seq:
            recs.append(host.session(u, ip, tt, close="both", length=rng.randint(5, 25)))


def plant_offhours(host):
    rng = host.rng
    ws, we = host.work
    sh, sm = int(ws[:2]), int(ws[3:])
    eh, em = int(we[:2]), int(we[3:])
    base = dt.datetime.fromtimestamp(host.t0 + 86400, UTC) + dt.timedelta(minutes=host.offset_min)
    days = [base.date() + dt.timedelta(days=i) for i in range(12)]
    weekdays = [d for d in days if d.weekday() < 5]
    weekend = [d for d in days if d.weekday() >= 5]
    picks = [(rng.choice(weekdays), sh, sm, 0), (rng.choice(weekdays), sh, sm, -1), (rng.choice(weekdays), eh, em, 0),
             (rng.choice(weekdays), eh, em, -1), (rng.choice(weekend), 11, 0, 0), (rng.choice(weekdays), 12, 30, 0),
             (rng.choice(weekdays), 3, 10, 0)]
    for d, hh, mm, off in picks:
        t = local_to_utc(host, d.year, d.month, d.day, hh, mm, 0) + off
        u = rng.choice(LEGIT)
        if rng.random() < 0.7:
            host.sudo(u, t, rng.choice(("/usr/bin/systemctl restart nginx", "/bin/journalctl -xe", "/usr/bin/apt upgrade")))
        else:
            host.su(u, t)


def build(rng, kind):
    """One hidden host of a kind: (files, answers). Kinds: formats, edges, timeline, alerts."""
    host = Host(rng, kind)
    recs = []
    if kind == "formats":
        recs += host.legit_sessions(rng.randint(14, 20), list(LEGIT))
        host.scanner(4, 6)
        host.noise(60)
    elif kind == "edges":
        recs += host.legit_sessions(6, list(LEGIT))
        plant_reuse(host, recs)
        for _ in range(3):
            recs.append(host.session(rng.choice(LEGIT), host.source(0.4), host.free_time(), close="open"))
        for _ in range(3):
            recs.append(host.session(rng.choice(LEGIT), host.source(0.4), host.free_time(),
                                     close=rng.choice(("closed_first", "disc_only"))))
        host.noise(50)
    elif kind == "timeline":
        recs += host.legit_sessions(8, list(LEGIT))
        host.scanner(5, host.bf_n + 2)
        recs.append(plant_attack(host))
        host.noise(50)
    elif kind == "example":  # a public host: a bit of everything
        recs += host.legit_sessions(8, list(LEGIT))
        plant_reuse(host, recs)
        recs.append(host.session(rng.choice(LEGIT), host.source(0.4), host.free_time(), close="open"))
        recs.append(plant_attack(host))
        plant_bruteforce_edges(host, recs)
        plant_travel(host, recs)
        plant_offhours(host)
        host.scanner(3, 3)
        host.noise(40)
    else:  # alerts
        recs += host.legit_sessions(5, list(LEGIT))
        plant_bruteforce_edges(host, recs)
        plant_travel(host, recs)
        plant_offhours(host)
        host.scanner(3, 3)
        host.noise(40)
    host.collected = max(e.t for e in host.events) + rng.randint(600, 20000)
    plan = file_plan(host)
    files = {"logs/" + k: v for k, v in render(host, plan).items()}
    meta = {"hostname": host.name, "utc_offset": fmt_offset(host.offset_min),
            "collected_at": iso(host.collected), "bruteforce": {"failures": host.bf_n, "window_min": host.bf_w},
            "travel_kmh": host.kmh, "work_hours": {"days": ["Mon", "Tue", "Wed", "Thu", "Fri"], "start": host.work[0], "end": host.work[1]}}
    files["host.json"] = (json.dumps(meta, indent=2) + "\n").encode()
    geo = ["network,country,lat,lon"]
    import ipaddress
    rows = sorted(host.geo, key=lambda r: (ipaddress.ip_network(r[0]).version, ipaddress.ip_network(r[0]).network_address,
                                           ipaddress.ip_network(r[0]).prefixlen))
    for net, (cc, la, lo) in rows:
        geo.append("%s,%s,%s,%s" % (net, cc, la, lo))
    files["geoip.csv"] = ("\n".join(geo) + "\n").encode()
    want = {"sessions": answer_sessions(recs), "alerts": answer_alerts(host)}
    want["timeline"] = answer_timeline(host, recs) if kind in ("timeline", "example") else None
    return files, want


def file_plan(host):
    rng = host.rng
    n = rng.randint(3, 4)
    names = ["auth.log.%d.gz" % i for i in range(n - 1, 1, -1)] + ["auth.log.1", "auth.log"]
    styles = []
    for _ in names:
        r = rng.random()
        styles.append("classic" if r < 0.55 or host.kind == "plain" else ("rfc", rng.choice((0, host.offset_min, -300, 120, 330))))
    styles[0] = "classic"  # the oldest file (across the year boundary) is always classic
    if host.kind != "plain" and rng.random() < 0.7:
        names.append("journal.json")
        styles.append("journal")
    return {"files": names, "styles": styles}
