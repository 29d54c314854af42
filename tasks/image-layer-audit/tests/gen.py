"""Plans hidden images: each motif owns its own directory, writes entries into chosen layers and
records, as it plants them, the findings the final image must produce (and decoys: findings a wrong
scanner would report). The layers are then written by ociw.py."""
import json
import string

import debref
import ociw

APPS = ["nginx", "redis", "worker", "billing", "agent", "gateway", "report", "ingest", "mailer", "cron",
        "search", "proxy", "vault", "ledger", "shipper", "auth"]
ROOTS = ["opt", "srv", "usr/local/lib", "var/lib", "etc", "home/app"]
KEY_TYPES = ["RSA ", "EC ", "OPENSSH ", "", "DSA ", "ENCRYPTED "]


def rand_text(rng, n, alphabet=string.ascii_letters + string.digits):
    return "".join(alphabet[rng.randrange(len(alphabet))] for _ in range(n))


def secret(rng, rule=None):
    """(bytes, rule id) holding exactly one secret of the rule."""
    rule = rule or rng.choice(["private-key", "private-key", "aws-access-key", "github-token"])
    if rule == "private-key":
        kt = rng.choice(KEY_TYPES)
        body = "\n".join(rand_text(rng, 64) for _ in range(3))
        text = "-----BEGIN %sPRIVATE KEY-----\n%s\n-----END %sPRIVATE KEY-----\n" % (kt, body, kt)
    elif rule == "aws-access-key":
        text = "[default]\naws_access_key_id = AKIA%s\nregion = eu-west-1\n" % rand_text(rng, 16, string.ascii_uppercase + string.digits)
    else:
        text = "machine api.github.com\n  password ghp_%s\n" % rand_text(rng, 36)
    return text.encode(), rule


def near_miss(rng):
    """Text that looks like a secret but matches no rule."""
    k = rng.randrange(6)
    if k == 0:
        return b"-----BEGIN PUBLIC KEY-----\n" + rand_text(rng, 64).encode() + b"\n-----END PUBLIC KEY-----\n"
    if k == 1:
        return b"-----BEGIN CERTIFICATE-----\n" + rand_text(rng, 64).encode() + b"\n-----END CERTIFICATE-----\n"
    if k == 2:
        return ("key = AKIA%s\n" % rand_text(rng, 17, string.ascii_uppercase + string.digits)).encode()
    if k == 3:
        return ("token=ghp_%s\n" % rand_text(rng, 35)).encode()
    if k == 4:
        return ("id = akia%s\n" % rand_text(rng, 16, string.ascii_lowercase + string.digits)).encode()
    return b"# -----BEGIN PRIVATE KEY BLOCK----- is not a key\n"


def clean(rng):
    return ("listen %d\nworkers %d\nname %s\n" % (rng.randrange(1000, 9000), rng.randrange(1, 9), rand_text(rng, 8))).encode()


def octal(mode):
    return "%04o" % mode


class Plan:
    def __init__(self, rng, nlayers):
        self.rng = rng
        self.n = nlayers
        self.blocks = [[] for _ in range(nlayers)]
        self.want = set()
        self.decoys = set()
        self.used = set()
        self.installed = {}

    def base(self):
        while True:
            b = "/%s/%s%d" % (self.rng.choice(ROOTS), self.rng.choice(APPS), self.rng.randrange(1, 99))
            if b not in self.used and not any(b.startswith(u + "/") or u.startswith(b + "/") for u in self.used):
                self.used.add(b)
                return b

    def layers(self, k):
        return sorted(self.rng.sample(range(self.n), k))

    def put(self, layer, *entries):
        self.blocks[layer].append(list(entries))

    # finding helpers
    def suid_like(self, path, mode, into):
        if mode & 0o111:
            if mode & 0o4000:
                into.add(("SETUID", path, octal(mode), None))
            if mode & 0o2000:
                into.add(("SETGID", path, octal(mode), None))
        if mode & 0o002:
            into.add(("WORLD_WRITABLE", path, octal(mode), None))


def F(path, data, mode=0o644, uid=0, gid=0):
    return {"path": path, "kind": "file", "data": data, "mode": mode, "uid": uid, "gid": gid}


def D(path, mode=0o755, uid=0, gid=0):
    return {"path": path, "kind": "dir", "mode": mode, "uid": uid, "gid": gid}


def S(path, target):
    return {"path": path, "kind": "symlink", "mode": 0o777, "link": target}


def H(path, target, mode=0o644):
    return {"path": path, "kind": "hardlink", "mode": mode, "link": target}


def WH(path):
    d, _, name = path.rpartition("/")
    return {"path": d + "/.wh." + name, "kind": "file", "data": b"", "mode": 0o644}


def OPQ(d):
    return {"path": d + "/.wh..wh..opq", "kind": "file", "data": b"", "mode": 0o644}


SUID_MODES = [0o4755, 0o4711, 0o4750, 0o6755, 0o2755, 0o2711, 0o4644, 0o2644, 0o6600]


# --- layer application motifs ---------------------------------------------------------------------
def m_whiteout_lower(p):
    a, b = p.layers(2)
    base = p.base()
    data, rule = secret(p.rng)
    f = base + "/" + p.rng.choice(["id_rsa", "deploy.key", "credentials", ".env", "token.txt"])
    s = base + "/bin/" + p.rng.choice(["helper", "su-wrap", "ping"])
    p.put(a, D(base), F(f, data, 0o600), D(base + "/bin"), F(s, b"\x7fELF tool", 0o4755))
    # a whiteout of the file and one of the whole bin/ directory
    p.put(b, WH(f), WH(base + "/bin"))
    p.want.add(("LEAKED_SECRET", f, rule, a))
    p.decoys.update({("SECRET", f, rule, None), ("SETUID", s, "4755", None)})


def m_whiteout_same_layer(p):
    a, b = p.layers(2)
    base = p.base()
    data, rule = secret(p.rng)
    f = base + "/bin/" + p.rng.choice(["runner", "launch", "mount-helper"])
    p.put(a, D(base), D(base + "/bin"), F(f, data, 0o644))
    mode = p.rng.choice([0o4755, 0o6755, 0o2755, 0o4750])
    # the layer re-creates the file and also whites it out: the whiteout hides the lower file only
    p.put(b, F(f, b"\x7fELF new build " + clean(p.rng), mode), WH(f))
    p.suid_like(f, mode, p.want)
    p.want.add(("LEAKED_SECRET", f, rule, a))


def m_opaque(p):
    a, b = p.layers(2)
    base = p.base()
    d = base + "/conf.d"
    data, rule = secret(p.rng)
    old_s = d + "/old-setuid"
    p.put(a, D(base), D(d), F(d + "/secret.pem", data, 0o600), F(old_s, b"old", 0o4755), D(d + "/sub"),
          F(d + "/sub/x.conf", clean(p.rng)))
    mode = p.rng.choice([0o4755, 0o2755, 0o0666])
    new = d + "/fresh-" + p.rng.choice(["tool", "daemon", "sh"])
    data2, rule2 = secret(p.rng)
    # own entries placed before the opaque marker stay
    p.put(b, D(d), F(new, b"\x7fELF fresh", mode), F(d + "/new.key", data2, 0o600), OPQ(d), F(d + "/after.conf", clean(p.rng)))
    p.suid_like(new, mode, p.want)
    p.want.add(("SECRET", d + "/new.key", rule2, None))
    p.want.add(("LEAKED_SECRET", d + "/secret.pem", rule, a))
    p.decoys.update({("SETUID", old_s, "4755", None), ("SECRET", d + "/secret.pem", rule, None)})


def m_hardlink(p):
    if p.n >= 3 and p.rng.random() < 0.6:
        a, b, c = p.layers(3)
    else:
        a, c = p.layers(2)
        b = a
    base = p.base()
    data, rule = secret(p.rng)
    mode = p.rng.choice([0o4755, 0o0640, 0o6755, 0o0666])
    src = base + "/data/" + p.rng.choice(["master.key", "signing.pem", "svc.cred"])
    dst = base + "/" + p.rng.choice(["backup.key", "link.pem", "copy.cred"])
    if a == b:
        p.put(a, D(base), D(base + "/data"), F(src, data, mode), H(dst, src, mode))
    else:
        p.put(a, D(base), D(base + "/data"), F(src, data, mode))
        p.put(b, H(dst, src, mode))
    p.put(c, WH(src) if p.rng.random() < 0.5 else WH(base + "/data"))
    p.want.add(("SECRET", dst, rule, None))
    p.suid_like(dst, mode, p.want)
    p.want.add(("LEAKED_SECRET", src, rule, a))


def m_dir_file_flip(p):
    back = p.n >= 3 and p.rng.random() < 0.7
    if back:
        a, b, c = p.layers(3)
    else:
        a, b = p.layers(2)
    base = p.base()
    d = base + "/plugins"
    data, rule = secret(p.rng)
    dmode = 0o777 if p.rng.random() < 0.5 else 0o755
    p.put(a, D(base), D(d, dmode), F(d + "/tool", b"\x7fELF", 0o4755), F(d + "/api.key", data, 0o600))
    if dmode == 0o777:
        p.decoys.add(("WORLD_WRITABLE", d, "0777", None))
    p.put(b, F(d, b"plugins disabled\n", 0o644))
    p.want.add(("LEAKED_SECRET", d + "/api.key", rule, a))
    p.decoys.update({("SETUID", d + "/tool", "4755", None), ("SECRET", d + "/api.key", rule, None)})
    if back:
        mode = p.rng.choice([0o2755, 0o0755, 0o4711])
        p.put(c, D(d), F(d + "/other", b"\x7fELF other", mode))
        p.suid_like(d + "/other", mode, p.want)


def m_chmod_later(p):
    a, b = p.layers(2)
    base = p.base()
    f = base + "/bin/" + p.rng.choice(["passwd", "newgrp", "mount", "chsh"])
    body = b"\x7fELF " + clean(p.rng)
    m1, m2 = p.rng.choice([(0o4755, 0o0755), (0o0755, 0o4755), (0o2755, 0o0755), (0o0755, 0o6755), (0o4755, 0o2755)])
    p.put(a, D(base), D(base + "/bin"), F(f, body, m1))
    p.put(b, F(f, body, m2))
    p.suid_like(f, m2, p.want)
    bogus = set()
    p.suid_like(f, m1, bogus)
    p.decoys.update(bogus - p.want)


def m_overwrite_secret(p):
    a, b = p.layers(2)
    base = p.base()
    f = base + "/" + p.rng.choice(["settings.ini", "app.env", "config.yml"])
    data, rule = secret(p.rng)
    if p.rng.random() < 0.5:
        p.put(a, D(base), F(f, data, 0o640))
        p.put(b, F(f, clean(p.rng), 0o640))
        p.want.add(("LEAKED_SECRET", f, rule, a))
        p.decoys.add(("SECRET", f, rule, None))
    else:
        p.put(a, D(base), F(f, clean(p.rng), 0o640))
        p.put(b, F(f, data, 0o640))
        p.want.add(("SECRET", f, rule, None))
        p.decoys.add(("LEAKED_SECRET", f, rule, a))


def m_dir_mode_kept(p):
    a, b = p.layers(2)
    base = p.base()
    d = base + "/cache"
    mode = p.rng.choice([0o0777, 0o0757, 0o1777])
    p.put(a, D(base), D(d, mode), F(d + "/seed", clean(p.rng)), F(d + "/suid-child", b"\x7fELF", 0o4755))
    if p.rng.random() < 0.5:
        # implicit parent: the directory keeps its mode
        p.put(b, F(d + "/more", clean(p.rng)))
        if mode & 0o1000:
            p.decoys.add(("WORLD_WRITABLE", d, octal(mode), None))
        else:
            p.want.add(("WORLD_WRITABLE", d, octal(mode), None))
    else:
        # an explicit directory entry changes the mode and keeps the children
        p.put(b, D(d, 0o755), F(d + "/more", clean(p.rng)))
        if mode & 0o002 and not mode & 0o1000:
            p.decoys.add(("WORLD_WRITABLE", d, octal(mode), None))
    p.want.add(("SETUID", d + "/suid-child", "4755", None))


LAYER_MOTIFS = [m_whiteout_lower, m_whiteout_same_layer, m_opaque, m_hardlink, m_dir_file_flip, m_chmod_later,
                m_overwrite_secret, m_dir_mode_kept]


# --- finding rule motifs --------------------------------------------------------------------------
def m_modes(p):
    (a,) = p.layers(1)
    base = p.base()
    ents = [D(base), D(base + "/bin")]
    for i, mode in enumerate(p.rng.sample(SUID_MODES, 4)):
        f = "%s/bin/tool%d" % (base, i)
        ents.append(F(f, b"\x7fELF", mode, uid=p.rng.choice([0, 0, 1000])))
        p.suid_like(f, mode, p.want)
        if not mode & 0o111 and mode & 0o6000:
            p.decoys.add(("SETUID" if mode & 0o4000 else "SETGID", f, octal(mode), None))
    p.put(a, *ents)


def m_world_writable(p):
    (a,) = p.layers(1)
    base = p.base()
    ents = [D(base)]
    for i, mode in enumerate(p.rng.sample([0o0666, 0o0777, 0o0646, 0o0664, 0o0622], 2)):
        f = "%s/file%d" % (base, i)
        ents.append(F(f, clean(p.rng), mode))
        p.suid_like(f, mode, p.want)
    for i, mode in enumerate([0o1777] + p.rng.sample([0o0777, 0o0757, 0o1757, 0o0775, 0o1733], 2)):
        d = "%s/dir%d" % (base, i)
        ents.append(D(d, mode))
        if mode & 0o002 and not mode & 0o1000:
            p.want.add(("WORLD_WRITABLE", d, octal(mode), None))
        elif mode & 0o002:
            p.decoys.add(("WORLD_WRITABLE", d, octal(mode), None))
    link = base + "/current"
    ents.append(S(link, p.rng.choice(["dir0", "/tmp", "../" + base.rsplit("/", 1)[1]])))
    p.decoys.add(("WORLD_WRITABLE", link, "0777", None))
    p.put(a, *ents)


def m_secrets(p):
    (a,) = p.layers(1)
    base = p.base()
    ents = [D(base)]
    for i in range(3):
        f = "%s/secret%d.txt" % (base, i)
        data, rule = secret(p.rng, ["private-key", "aws-access-key", "github-token"][i] if i < 3 else None)
        if p.rng.random() < 0.3:
            d2, r2 = secret(p.rng, "github-token" if rule != "github-token" else "aws-access-key")
            data += b"\n" + d2
            p.want.add(("SECRET", f, r2, None))
        ents.append(F(f, data, 0o600))
        p.want.add(("SECRET", f, rule, None))
    for i in range(2):
        ents.append(F("%s/notes%d.txt" % (base, i), near_miss(p.rng)))
    data, rule = secret(p.rng, "private-key")
    ents.append(S(base + "/key-link", "secret0.txt"))
    p.put(a, *ents)


def m_same_content(p):
    a, b = p.layers(2)
    base = p.base()
    f = base + "/tls/server.key"
    data, rule = secret(p.rng, "private-key")
    p.put(a, D(base), D(base + "/tls"), F(f, data, 0o644))
    p.put(b, F(f, data, 0o600))
    p.want.add(("SECRET", f, rule, None))
    p.decoys.add(("LEAKED_SECRET", f, rule, a))


def m_hardlink_modes(p):
    (a,) = p.layers(1)
    base = p.base()
    mode = p.rng.choice([0o6755, 0o4755, 0o2711])
    src, dst = base + "/bin/real", base + "/bin/alias"
    p.put(a, D(base), D(base + "/bin"), F(src, b"\x7fELF", mode), H(dst, src, mode))
    p.suid_like(src, mode, p.want)
    p.suid_like(dst, mode, p.want)


RULE_MOTIFS = [m_modes, m_world_writable, m_secrets, m_same_content, m_hardlink_modes, m_overwrite_secret, m_chmod_later]


# --- packages -------------------------------------------------------------------------------------
PKGS = ["openssl", "libssl3", "zlib1g", "curl", "libcurl4", "bash", "tar", "gzip", "libxml2", "sudo", "git",
        "perl-base", "libc6", "apt", "ncurses-base", "libexpat1", "python3.11", "openssh-client", "wget",
        "libgnutls30", "systemd", "util-linux", "login", "passwd"]
PAIRS = [
    ("1.2.3~rc1-1", "1.2.3-1"), ("1.2.3-1", "1.2.3~rc1-1"), ("2.0~beta2", "2.0"), ("2.0", "2.0~beta2"),
    ("2.36~", "2.36"), ("1:1.0-1", "2.0-1"), ("2.0-1", "1:1.0-1"), ("1:2.4-3", "1:2.10-1"), ("1.2-3-4", "1.2-10"),
    ("3.0.11-1~deb12u2", "3.0.11-1"), ("3.0.11-1", "3.0.11-1~deb12u2"), ("3.0.11-1~deb12u1", "3.0.11-1~deb12u2"),
    ("1.9", "1.10"), ("1.10", "1.9"), ("1.01", "1.1"), ("7.88.1-10+deb12u5", "7.88.1-10+deb12u12"),
    ("1.0a", "1.0+"), ("1.0+dfsg-1", "1.0-1"), ("2.9.14+dfsg-1.3~deb12u1", "2.9.14+dfsg-1.3"),
    ("5.2.15-2+b2", "5.2.15-2"), ("1.22-1", "1.22-1"), ("0:1.5-2", "1.5-2"), ("2:8.39-15", "8.40-1"),
    ("252.22-1~deb12u1", "252.22-1~deb12u1"), ("1.0-1-1", "1.0-1-1~bpo1"), ("9.2p1-2+deb12u3", "9.2p1-2+deb12u2"),
    ("2.38.1-5+deb12u1", "2.38.1-5+deb12u2"), ("1:9.2p1-2", "1:9.2p1-2+b1"), ("10.1~0", "10.1"),
]
STATUS_STYLES = ["direct", "abs", "climb", "dirlink", "dirclimb"]


def paragraph(name, version, status="install ok installed"):
    return ("Package: %s\nStatus: %s\nPriority: optional\nArchitecture: amd64\nVersion: %s\n"
            "Description: the %s package\n multi-line description\n .\n Version: 99.0\n" % (name, status, version, name))


# pairs every hidden package image carries: a tilde pre-release, an upstream version with a hyphen,
# an epoch, numeric runs
REQUIRED = [("1.2.3~rc1-1", "1.2.3-1"), ("1.2-3-4", "1.2-10"), ("2.0-1", "1:1.0-1"), ("1.9", "1.10")]


def m_packages(p, feed, pairs=PAIRS, styles=STATUS_STYLES, n=8, required=(), style=None):
    rng = p.rng
    chosen = list(required) + [rng.choice(pairs) for _ in range(n - len(required))]
    chosen = rng.sample(chosen, len(chosen))
    names = rng.sample(PKGS, n + 3)
    upgrade = p.n >= 2 and rng.random() < 0.7
    if upgrade:
        a, b = p.layers(2)
    else:
        (b,) = p.layers(1)
        a = None
    final, old = {}, {}
    for name, (inst, fixed) in zip(names[:n], chosen):
        final[name] = inst
        feed.append({"package": name, "cve": cve(rng, feed), "fixed": fixed})
        if rng.random() < 0.3:
            feed.append({"package": name, "cve": cve(rng, feed), "fixed": None if rng.random() < 0.5 else "0.1-1"})
        if upgrade and rng.random() < 0.5:
            old[name] = rng.choice(["0.9-1", "1:0.1", "0.0~git1"])
    # a removed package (configuration files only) and a half-installed one: not installed
    gone = {names[n]: "0.1-1", names[n + 1]: "0.2-1"}
    for name, ver in gone.items():
        feed.append({"package": name, "cve": cve(rng, feed), "fixed": "9.9-1"})
        p.decoys.add(("VULN", name, feed[-1]["cve"], None))
    feed.append({"package": names[n + 2], "cve": cve(rng, feed), "fixed": None})
    p.decoys.add(("VULN", names[n + 2], feed[-1]["cve"], None))
    p.installed = dict(final)
    text = "".join(paragraph(k, v) + "\n" for k, v in final.items())
    text += paragraph(names[n], gone[names[n]], "deinstall ok config-files") + "\n"
    text += paragraph(names[n + 1], gone[names[n + 1]], "install ok half-installed")
    for e in feed:
        if e["package"] in final:
            v = final[e["package"]]
            hit = e["fixed"] is None or debref.older(v, e["fixed"])
            (p.want if hit else p.decoys).add(("VULN", e["package"], e["cve"], None))
    style = style or rng.choice(styles)
    where = {"direct": "/var/lib/dpkg/status", "abs": "/usr/share/dpkg-db/status", "climb": "/usr/share/dpkg-db/status",
             "dirlink": "/usr/lib/dpkg-db/status", "dirclimb": "/srv/dpkg/status"}[style]
    first = a if a is not None else b
    links = {"abs": [D("/var"), D("/var/lib"), D("/var/lib/dpkg"), S("/var/lib/dpkg/status", "/usr/share/dpkg-db/status")],
             "climb": [D("/var"), D("/var/lib"), D("/var/lib/dpkg"), S("/var/lib/dpkg/status", "../../../../../../usr/share/dpkg-db/status")],
             "dirlink": [D("/var"), D("/var/lib"), S("/var/lib/dpkg", "../../usr/lib/dpkg-db")],
             "dirclimb": [D("/var"), D("/var/lib"), S("/var/lib/dpkg", "../../../../../srv/dpkg")]}.get(style, [])
    if links:
        p.put(first, *links)
    dirs = [D(x) for x in parents(where)]
    if a is not None:
        oldtext = "".join(paragraph(k, old.get(k, v)) + "\n" for k, v in final.items())
        p.put(a, *(dirs + [F(where, oldtext.encode())]))
    p.put(b, *(dirs + [F(where, text.encode())]))


def parents(path):
    parts = path.strip("/").split("/")[:-1]
    return ["/" + "/".join(parts[:i + 1]) for i in range(len(parts))]


def cve(rng, feed):
    taken = {e["cve"] for e in feed}
    while True:
        c = "CVE-%d-%d" % (rng.choice([2023, 2024, 2025, 2026]), rng.randrange(1000, 60000))
        if c not in taken:
            return c


# --- images ---------------------------------------------------------------------------------------
def archive_name(path, kind, style):
    name = path.lstrip("/")
    if style:
        name = "./" + name
    return name + "/" if kind == "dir" else name


def render_layer(rng, blocks):
    style = rng.choice(["", "./"])
    order = rng.sample(range(len(blocks)), len(blocks))
    ents = []
    for i in order:
        for e in blocks[i]:
            e = dict(e)
            e["name"] = archive_name(e["path"], e["kind"], style)
            if e["kind"] == "hardlink":
                e["link"] = archive_name(e["link"], "file", style)
            ents.append(e)
    return ociw.tar_bytes(ents)


def build_image(rng, motifs, nlayers, packages=None, integrity=None, feed=None):
    """Returns (files, want dict, decoys). want = {"verified", "bad_blobs", "findings"}."""
    p = Plan(rng, nlayers)
    for m in motifs:
        m(p)
    feed = [] if feed is None else feed
    if packages is not None:
        m_packages(p, feed, **packages)
    integ = dict(integrity or {})
    lay = ociw.Layout()
    medias = [integ.get("media") or rng.choice([ociw.LAYER_TAR, ociw.LAYER_GZ]) for _ in range(nlayers)]
    tars = [render_layer(rng, blocks) for blocks in p.blocks]
    desc, man = lay.image(list(zip(tars, medias)))
    manifests = [desc]
    if integ.get("multi"):
        q = Plan(rng, 1)
        m_modes(q)
        m_secrets(q)
        other, oman = lay.image([(render_layer(rng, q.blocks[0]), ociw.LAYER_GZ)], arch="arm64")
        p.decoys.update(q.want - p.want)
        manifests = [other, desc] if rng.random() < 0.7 else [desc, other]
        if integ.get("corrupt_other"):
            integ["corrupt_digest"] = oman["layers"][0]["digest"]
    files = lay.files(manifests, platforms=integ.get("platforms", True) or len(manifests) > 1)
    want = {"verified": True, "bad_blobs": [], "findings": set(p.want)}
    bad = integ.get("corrupt")
    if bad:
        if bad == "layer":
            dg = rng.choice(man["layers"])["digest"]
        else:
            dg = man["config"]["digest"]
        integ["corrupt_digest"] = dg
        want = {"verified": False, "bad_blobs": [dg], "findings": set()}
        p.decoys.update(p.want)
    dg = integ.get("corrupt_digest")
    if dg:
        rel = "blobs/sha256/" + dg.split(":", 1)[1]
        if integ.get("missing") and bad:
            del files[rel]
        else:
            data = bytearray(files[rel])
            k = len(data) // 2
            data[k] ^= 0x01
            files[rel] = bytes(data)
    return files, {"feed": {"entries": feed}, "installed": p.installed}, want, p.decoys - p.want


def feed_bytes(feed):
    return json.dumps(feed, indent=1, sort_keys=True).encode()


# --- another scanner's report, with planted errors -----------------------------------------------
WRONG_MODE = {"4755": "4775", "2755": "2775", "6755": "4755", "4711": "4755", "0777": "0775", "0666": "0664"}


def vendor_report(rng, want, decoys):
    """Returns (report dict, expected audit rows as a set). The rows follow the audit rule: per
    (kind, path) group, one wrong finding against one right one is WRONG_DETAIL, otherwise every
    finding only in the truth is MISSED and every one only in the report SPURIOUS."""
    truth = set(want["findings"])
    rep = set(truth)
    if want["verified"]:
        items = sorted(truth, key=key)
        rng.shuffle(items)
        for f in items[:rng.randrange(1, 3)]:
            rep.discard(f)                                   # missed
        for f in items[2:4]:
            if f not in rep:
                continue
            kind, path, detail, layer = f
            if kind == "LEAKED_SECRET":
                new = (kind, path, detail, layer + 1)
            elif kind in ("SETUID", "SETGID", "WORLD_WRITABLE"):
                new = (kind, path, WRONG_MODE.get(detail, "0777"), layer)
            elif kind == "SECRET":
                new = (kind, path, "github-token" if detail != "github-token" else "private-key", layer)
            else:
                new = (kind, path, "CVE-2019-0001", layer)
            rep.discard(f)
            rep.add(new)
        for f in rng.sample(sorted(decoys, key=key), min(3, len(decoys))):
            rep.add(f)
    else:
        rep = set(rng.sample(sorted(decoys, key=key), min(4, len(decoys))))
    rows = audit_rows(truth, rep)
    verified = want["verified"]
    if not verified:
        rows.add(("VERIFY", "IMAGE", "", "true", "false"))
    report = {"image": "vendor", "verified": True, "bad_blobs": [],
              "findings": [{"kind": k, "path": pa, "detail": d, "layer": l} for k, pa, d, l in sorted(rep, key=key)]}
    return report, rows


def key(f):
    return (f[0], f[1], f[2], -1 if f[3] is None else f[3])


def show(f):
    return f[2] if f[3] is None else "%s@%d" % (f[2], f[3])


def audit_rows(truth, rep):
    rows = set()
    for kp in {(f[0], f[1]) for f in truth | rep}:
        w = {f for f in truth if (f[0], f[1]) == kp}
        r = {f for f in rep if (f[0], f[1]) == kp}
        if w == r:
            continue
        if len(w) == 1 and len(r) == 1:
            rows.add(("WRONG_DETAIL",) + kp + (show(next(iter(r))), show(next(iter(w)))))
        else:
            rows.update(("MISSED",) + kp + ("", show(f)) for f in w - r)
            rows.update(("SPURIOUS",) + kp + (show(f), "") for f in r - w)
    return rows


# --- hidden cases per family ----------------------------------------------------------------------
def hidden_case(rng, family, i):
    """One hidden image of a family: (files of the image dir, feed dict, want, decoys)."""
    if family == "layers":
        motifs = LAYER_MOTIFS + [rng.choice(LAYER_MOTIFS) for _ in range(2)]
        return build_image(rng, rng.sample(motifs, len(motifs)), rng.randint(3, 5))
    if family == "findings":
        motifs = RULE_MOTIFS + [rng.choice(RULE_MOTIFS)]
        return build_image(rng, rng.sample(motifs, len(motifs)), rng.randint(2, 4))
    if family == "packages":
        style = ["climb", "dirclimb", rng.choice(["direct", "abs", "dirlink"])][i % 3]
        return build_image(rng, [m_modes], rng.randint(2, 4), packages={"required": REQUIRED, "style": style, "n": 10})
    if family == "integrity":
        motifs = [m_modes, m_secrets, m_overwrite_secret]
        if i % 3 == 0:
            kind = rng.choice([{"corrupt": "layer"}, {"corrupt": "config"}, {"corrupt": "layer", "missing": True}])
            kind["media"] = rng.choice([ociw.LAYER_DOCKER_GZ, ociw.LAYER_GZ])
            return build_image(rng, motifs, 3, packages={"n": 4}, integrity=kind)
        integ = {"multi": True, "corrupt_other": True}
        if i % 3 == 2:
            integ["media"] = ociw.LAYER_DOCKER_GZ
        return build_image(rng, motifs, 3, packages={"n": 4}, integrity=integ)
    if family == "audit":
        if i == 2:
            return build_image(rng, [m_modes, m_secrets, m_chmod_later], 3, packages={"n": 4},
                               integrity={"corrupt": rng.choice(["layer", "config"])})
        motifs = rng.sample(LAYER_MOTIFS, 4) + rng.sample(RULE_MOTIFS, 3)
        return build_image(rng, motifs, rng.randint(3, 5), packages={"n": 6})
    raise ValueError(family)


def vulns_over(installed, feed):
    """VULN findings of installed packages against a whole feed (debref's order)."""
    return {("VULN", e["package"], e["cve"], None) for e in feed
            if e["package"] in installed and (e["fixed"] is None or debref.older(installed[e["package"]], e["fixed"]))}
