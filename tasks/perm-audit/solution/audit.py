#!/usr/bin/env python3
"""Reference host audit over a snapshot: file modes, sshd effective config, sudoers, accounts."""
import fnmatch, glob, gzip, json, os, re, sys


def read(path):
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode()


def parse_mode(m):
    if ":" in m:
        t, o = m.split(":")
        return {"f": "-", "d": "d", "l": "l"}[t], int(o, 8)
    t, s = m[0], m[1:]
    bits = 0
    for i, (r, w, x) in enumerate([s[0:3], s[3:6], s[6:9]]):
        sh = 6 - 3 * i
        bits |= (r == "r") << (sh + 2) | (w == "w") << (sh + 1) | (x in "xst") << sh
        if x in "sS" and i < 2:
            bits |= 0o4000 if i == 0 else 0o2000
        if x in "tT" and i == 2:
            bits |= 0o1000
    return t, bits


def fs_findings(root, out):
    name = "fs.txt" if os.path.exists(os.path.join(root, "fs.txt")) else "fs.txt.gz"
    allow = set()
    ap = os.path.join(root, "allowlist_suid.txt")
    if os.path.exists(ap):
        allow = {l.strip() for l in read(ap).splitlines() if l.strip() and not l.startswith("#")}
    for line in read(os.path.join(root, name)).splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        t, bits = parse_mode(parts[0])
        path = parts[3]
        if t == "-":
            if bits & 0o002:
                out.add(("world_writable", path))
            if bits & 0o6000 and path not in allow:
                out.add(("suid_unexpected", path))
            if os.path.basename(path) == "authorized_keys" and bits & 0o022:
                out.add(("authorized_keys_perms", path))
        elif t == "d" and bits & 0o002 and not bits & 0o1000:
            out.add(("ww_dir_no_sticky", path))


def sshd(root, out):
    eff = {}

    def load(path):
        in_match = False
        for raw in read(path).splitlines():
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = re.split(r"[\s=]+", line, maxsplit=1)
            key, val = parts[0].lower(), (parts[1].strip() if len(parts) > 1 else "")
            if key == "match":
                in_match = True
                continue
            if key == "include":
                for pat in val.split():
                    pat = pat if pat.startswith("/") else "/etc/ssh/" + pat
                    for f in sorted(glob.glob(os.path.join(root, pat.lstrip("/")))):
                        load(f)
                continue
            if not in_match and key not in eff:
                eff[key] = val.lower()

    load(os.path.join(root, "etc/ssh/sshd_config"))
    if eff.get("permitrootlogin", "prohibit-password") == "yes":
        out.add(("ssh_root_login", "sshd"))
    if eff.get("passwordauthentication", "yes") == "yes":
        out.add(("ssh_password_auth", "sshd"))


def sudo(root, out):
    lines = []

    def load(path):
        buf = ""
        for raw in read(path).splitlines():
            s = raw.rstrip()
            if s.startswith("#includedir") or s.startswith("@includedir"):
                d = os.path.join(root, s.split(None, 1)[1].strip().lstrip("/"))
                for f in sorted(os.listdir(d)):
                    if "." in f or f.endswith("~"):
                        continue
                    load(os.path.join(d, f))
                continue
            if s.lstrip().startswith("#"):
                continue
            if s.endswith("\\"):
                buf += s[:-1] + " "
                continue
            buf += s
            if buf.strip():
                lines.append(buf.strip())
            buf = ""

    load(os.path.join(root, "etc/sudoers"))
    ua, ca = {}, {}
    rules = []
    for l in lines:
        m = re.match(r"^(User_Alias|Cmnd_Alias|Host_Alias|Runas_Alias)\s+(.*)$", l)
        if m:
            for part in m.group(2).split(":"):
                name, _, members = part.partition("=")
                tgt = ua if m.group(1) == "User_Alias" else ca if m.group(1) == "Cmnd_Alias" else {}
                tgt[name.strip()] = [x.strip() for x in members.split(",") if x.strip()]
            continue
        if l.startswith("Defaults"):
            continue
        rules.append(l)

    def users(u):
        return [y for x in ua.get(u, [u]) for y in (users(x) if x in ua and x != u else [x])]

    def cmds(c):
        c = c.strip()
        return [y for x in ca.get(c, [c]) for y in (cmds(x) if x in ca and x != c else [x.strip()])]

    for r in rules:
        who, _, spec = r.partition(" ")
        host, _, rest = spec.partition("=")
        rest = re.sub(r"^\s*\([^)]*\)\s*", "", rest.strip())
        nop = False
        for entry in rest.split(","):
            entry = entry.strip()
            while True:
                m = re.match(r"^(NOPASSWD|PASSWD|NOEXEC|EXEC|SETENV|NOSETENV)\s*:\s*", entry)
                if not m:
                    break
                nop = m.group(1) == "NOPASSWD" if m.group(1) in ("NOPASSWD", "PASSWD") else nop
                entry = entry[m.end():]
            entry = re.sub(r"^\([^)]*\)\s*", "", entry)
            if nop and "ALL" in cmds(entry):
                for w in who.split(","):
                    for u in users(w.strip()):
                        out.add(("sudo_nopasswd_all", u))


def accounts(root, out):
    for l in read(os.path.join(root, "etc/passwd")).splitlines():
        if l.strip() and not l.startswith("#"):
            f = l.split(":")
            if f[2].strip() == "0" and f[0] != "root":
                out.add(("uid0_nonroot", f[0]))
    for l in read(os.path.join(root, "etc/shadow")).splitlines():
        if l.strip() and not l.startswith("#"):
            f = l.split(":")
            if f[1] == "":
                out.add(("empty_password", f[0]))


def main():
    root, dest = sys.argv[1], sys.argv[2]
    out = set()
    for fn in (fs_findings, sshd, sudo, accounts):
        fn(root, out)
    json.dump([{"rule": r, "target": t} for r, t in sorted(out)], open(dest, "w"), indent=1)


if __name__ == "__main__":
    main()
