"""sudoers: includedir, continuations, aliases, tag inheritance."""
import os, re

TAGS = r"^(NOPASSWD|PASSWD|NOEXEC|EXEC|SETENV|NOSETENV)\s*:\s*"


def logical_lines(snap):
    """(text, file, first line number) of every logical line, include files read in place."""
    lines = []

    def load(host_path):
        buf, start = "", None
        with open(snap.path(host_path), encoding="utf-8") as f:
            raw_lines = f.read().splitlines()
        for n, raw in enumerate(raw_lines, 1):
            s = raw.rstrip()
            if start is None:
                start = n
            if not buf and (s.startswith("#includedir") or s.startswith("@includedir")):
                d = s.split(None, 1)[1].strip()
                for name in sorted(os.listdir(snap.path(d))):
                    if "." in name or name.endswith("~"):
                        continue
                    load(d.rstrip("/") + "/" + name)
                start = None
                continue
            if not buf and s.lstrip().startswith("#"):
                start = None
                continue
            if s.endswith("\\"):
                buf += s[:-1] + " "
                continue
            buf += s
            if buf.strip():
                lines.append((buf.strip(), host_path, start))
            buf, start = "", None

    load("/etc/sudoers")
    return lines


def rules(snap):
    """(grantees, file, line) for each rule granting ALL while NOPASSWD is in effect."""
    ua, ca, found = {}, {}, []
    specs = []
    for text, f, n in logical_lines(snap):
        m = re.match(r"^(User_Alias|Cmnd_Alias|Host_Alias|Runas_Alias)\s+(.*)$", text)
        if m:
            for part in m.group(2).split(":"):
                name, _, members = part.partition("=")
                tgt = ua if m.group(1) == "User_Alias" else ca if m.group(1) == "Cmnd_Alias" else {}
                tgt[name.strip()] = [x.strip() for x in members.split(",") if x.strip()]
            continue
        if text.startswith("Defaults"):
            continue
        specs.append((text, f, n))

    def users(u):
        return [y for x in ua.get(u, [u]) for y in (users(x) if x in ua and x != u else [x])]

    def cmds(c):
        c = c.strip()
        return [y for x in ca.get(c, [c]) for y in (cmds(x) if x in ca and x != c else [x.strip()])]

    for text, f, n in specs:
        who, _, spec = text.partition(" ")
        _, _, rest = spec.partition("=")
        rest = re.sub(r"^\s*\([^)]*\)\s*", "", rest.strip())
        nop, hit = False, False
        for entry in rest.split(","):
            entry = entry.strip()
            while True:
                m = re.match(TAGS, entry)
                if not m:
                    break
                nop = m.group(1) == "NOPASSWD" if m.group(1) in ("NOPASSWD", "PASSWD") else nop
                entry = entry[m.end():]
            entry = re.sub(r"^\([^)]*\)\s*", "", entry)
            if nop and "ALL" in cmds(entry):
                hit = True
        if hit:
            grantees = [u for w in who.split(",") for u in users(w.strip())]
            found.append((grantees, f, n))
    return found


def sudo_findings(snap, out):
    for grantees, _, _ in rules(snap):
        for u in grantees:
            out.add(("sudo_nopasswd_all", u))
