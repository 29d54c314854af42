"""Seeded host snapshots with planted misconfigurations. Every finding is recorded in the truth set
at the moment it is planted, together with what it takes to clear it (the planted mode bits, the
sudoers file and line the rule was written to); the remediation plan is assembled from those
records and the accepted risks drawn for the host. Nothing here parses a finished snapshot."""
import gzip, json

USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
SUID_OK = ["/usr/bin/passwd", "/usr/bin/sudo", "/usr/bin/su", "/usr/bin/mount", "/usr/bin/chsh"]
SUID_BAD = ["/usr/local/bin/backupctl", "/opt/vendor/bin/diag", "/home/%s/bin/tool", "/usr/bin/find", "/var/tmp/.x/sh"]
RULES = ["world_writable", "ww_dir_no_sticky", "suid_unexpected", "authorized_keys_perms", "ssh_root_login",
         "ssh_password_auth", "sudo_nopasswd_all", "uid0_nonroot", "empty_password"]
FILE_RULES = {"world_writable", "ww_dir_no_sticky", "suid_unexpected", "authorized_keys_perms"}
WEIGHT = {"uid0_nonroot": 10, "empty_password": 8, "sudo_nopasswd_all": 6, "ssh_root_login": 5, "suid_unexpected": 4,
          "authorized_keys_perms": 3, "ssh_password_auth": 3, "world_writable": 2, "ww_dir_no_sticky": 1}
KIND_RANK = {"remove_user": 0, "lock": 1, "sudo_remove": 2, "sshd_set": 3, "chmod": 4}


def symbolic(t, bits):
    out = t
    for i in range(3):
        sh = 6 - 3 * i
        r, w, x = bits >> (sh + 2) & 1, bits >> (sh + 1) & 1, bits >> sh & 1
        special = (bits & 0o4000 and i == 0) or (bits & 0o2000 and i == 1)
        sticky = bits & 0o1000 and i == 2
        xc = ("s" if x else "S") if special else ("t" if x else "T") if sticky else ("x" if x else "-")
        out += ("r" if r else "-") + ("w" if w else "-") + xc
    return out


def fs(rng, hard, st):
    truth, modes = st["truth"], st["modes"]
    entries = []

    def add(t, bits, path, force_sym=False):
        entries.append((t, bits, path, force_sym))

    def plant(rule, path, bits):
        truth.add((rule, path))
        modes[path] = bits

    for d in ["/etc", "/usr/bin", "/usr/local/bin", "/srv/data", "/var/log", "/opt/vendor/bin"]:
        add("d", 0o755, d)
    add("d", 0o1777, "/tmp")
    add("d", 0o1777, "/var/tmp")
    for k in range(rng.randint(25, 45)):
        add("-", rng.choice([0o644, 0o755, 0o640, 0o600, 0o444]), rng.choice(["/etc", "/usr/bin", "/srv/data", "/var/log"]) + "/f%03d" % k)
    for p in rng.sample(SUID_OK, 3):
        add("-", rng.choice([0o4755, 0o4711]), p)
    bad = rng.sample(SUID_BAD, rng.randint(1, 3))
    for p in bad:
        p = p.replace("%s", rng.choice(USERS))
        b = rng.choice([0o4755, 0o2755, 0o6755] + ([0o4644, 0o2711, 0o6750] if hard else []))
        add("-", b, p)
        plant("suid_unexpected", p, b)
    for k in range(rng.randint(1, 3)):
        p = "/srv/data/shared%02d.csv" % k
        b = rng.choice([0o666, 0o646, 0o777, 0o602])
        add("-", b, p)
        plant("world_writable", p, b)
    for k in range(rng.randint(1, 2)):
        p = "/srv/drop%d" % k
        b = rng.choice([0o777, 0o773, 0o2777])
        add("d", b, p)
        plant("ww_dir_no_sticky", p, b)
    add("d", 0o1777, "/srv/upload")
    for u in rng.sample(USERS, 4):
        p = "/home/%s/.ssh/authorized_keys" % u
        b = rng.choice([0o600, 0o644, 0o664, 0o620, 0o646])
        add("-", b, p)
        if b & 0o022:
            plant("authorized_keys_perms", p, b)
            if b & 0o002:
                plant("world_writable", p, b)
    if hard:
        # A setuid file that is world-writable too, and the special-bit spellings without execute.
        p = "/usr/local/sbin/rotate-%s" % rng.choice(["logs", "keys", "certs"])
        b = rng.choice([0o4757, 0o4777, 0o6757])
        add("-", b, p)
        plant("suid_unexpected", p, b)
        plant("world_writable", p, b)
        st["suid_ww"] = p
        p = "/usr/local/bin/legacy-%d" % rng.randint(1, 9)
        b = rng.choice([0o4644, 0o4640, 0o2644])
        add("-", b, p, True)
        plant("suid_unexpected", p, b)
        add("d", rng.choice([0o1776, 0o1772]), "/srv/inbox", True)
        add("d", 0o3777, "/srv/team")
        add("-", 0o1666, "/srv/data/odd.bin", True)
        plant("world_writable", "/srv/data/odd.bin", 0o1666)
        add("-", 0o1644, "/srv/data/sticky.bin", True)
        for p in ["/usr/bin/vi", "/etc/alternatives/editor", "/usr/local/bin/python"]:
            add("l", 0o777, p)
    rng.shuffle(entries)
    lines = ["# mode owner group path"]
    for t, b, p, force in entries:
        m = symbolic(t, b) if hard and (force or rng.random() < 0.75) else "%s:%04o" % ({"-": "f", "d": "d", "l": "l"}[t], b)
        tail = " -> /usr/bin/vim.basic" if t == "l" else ""
        owner = p.split("/")[2] if p.startswith("/home/") else "root"
        lines.append("%s %s %s %s%s" % (m, owner, owner, p, tail))
    st["files"]["allowlist_suid.txt"] = "# setuid/setgid binaries expected on this host\n" + "\n".join(SUID_OK) + "\n"
    return "\n".join(lines) + "\n"


def kw(rng, k, hard):
    return (k.lower() if rng.random() < 0.3 else k.upper() if rng.random() < 0.2 else k) if hard else k


def sshd(rng, hard, st):
    truth, files = st["truth"], st["files"]
    opts = {"PermitRootLogin": ["yes", "no", "prohibit-password", None], "PasswordAuthentication": ["yes", "no", None]}
    eff = {k: rng.choice(v) for k, v in opts.items()}
    if hard and rng.random() < 0.5:
        eff[rng.choice(list(opts))] = "yes"
    if (eff["PermitRootLogin"] or "prohibit-password") == "yes":
        truth.add(("ssh_root_login", "sshd"))
    if (eff["PasswordAuthentication"] or "yes") == "yes":
        truth.add(("ssh_password_auth", "sshd"))
    # Processing order: slot 0 = include file 10-*.conf, 1 = 50-*.conf, 2 = main file after Include.
    slots = [[], [], []]
    tails = [[], [], []]  # Match blocks (at the end of their file)
    for k, v in eff.items():
        others = [x for x in opts[k] if x and x != v]
        if not hard:
            if v:
                slots[2].append("%s %s" % (k, v))
            continue
        win = rng.randint(0, 2)
        if v:
            slots[win].append("%s%s%s" % (kw(rng, k, hard), rng.choice([" ", "=", " = ", "\t"]), v))
            for s in range(win + 1, 3):
                if rng.random() < 0.8:
                    slots[s].append("%s %s" % (kw(rng, k, hard), rng.choice(others)))
        for s in range(3):
            if rng.random() < (0.75 if s < 2 else 0.5):
                tails[s].append("    %s %s" % (k, rng.choice(others)))

    if hard and not tails[0]:
        tails[0].append("    X11Forwarding yes")

    def body(s):
        out = list(slots[s])
        if tails[s]:
            out.append("Match User %s" % rng.choice(USERS))
            out += tails[s]
        return out
    main = ["# sshd_config generated by config management", "Port 22"]
    if hard:
        main.append(rng.choice(["Include /etc/ssh/sshd_config.d/*.conf", "Include sshd_config.d/*.conf"]))
        files["etc/ssh/sshd_config.d/10-hardening.conf"] = "\n".join(["# hardening"] + body(0)) + "\n"
        files["etc/ssh/sshd_config.d/50-cloud.conf"] = "\n".join(body(1)) + "\n"
        files["etc/ssh/sshd_config.d/99-disabled.conf.bak"] = "PermitRootLogin yes\nPasswordAuthentication yes\n"
    main += ["UsePAM yes", "X11Forwarding no  # no X"] + body(2) + ["Subsystem sftp /usr/lib/openssh/sftp-server"]
    files["etc/ssh/sshd_config"] = "\n".join(main) + "\n"


def sudo(rng, hard, st):
    truth, files = st["truth"], st["files"]
    us = rng.sample(USERS, 8)
    head = ["# /etc/sudoers", "Defaults env_reset", "Defaults secure_path=\"/usr/sbin:/usr/bin\"", "root ALL=(ALL:ALL) ALL"]
    body = [("%s ALL=(ALL) NOPASSWD: ALL" % us[0], [us[0]]),
            ("%s ALL=(ALL) ALL" % us[1], None),
            ("%s ALL=(root) NOPASSWD: /usr/bin/systemctl restart nginx" % us[2], None),
            ("%ops ALL=(ALL) NOPASSWD: ALL", ["%ops"])]
    rng.shuffle(body)
    main = [(x, None) for x in head] + body
    if hard:
        main.append(("User_Alias ADMINS = %s, %s : DEPLOY = %s" % (us[3], us[4], us[5]), None))
        main.append(("Cmnd_Alias EVERYTHING = ALL", None))
        main.append(("Cmnd_Alias SAFE = /usr/bin/ls, \\\n    /usr/bin/cat", None))
        main.append(("ADMINS ALL=(ALL) NOPASSWD: \\\n    EVERYTHING", [us[3], us[4]]))
        main.append(("DEPLOY ALL=(ALL) NOPASSWD: SAFE, PASSWD: ALL", None))
        main.append(("%s ALL=(ALL) NOPASSWD: /usr/bin/id, ALL" % us[6], [us[6]]))
        main.append(("#includedir /etc/sudoers.d", None))
        st["sudo_rules"].append(("/etc/sudoers.d/90-cloud", 2, [us[7]]))
        files["etc/sudoers.d/90-cloud"] = "# created by cloud-init\n%s ALL=(ALL) NOPASSWD:ALL\n" % us[7]
        files["etc/sudoers.d/README.txt"] = "%s ALL=(ALL) NOPASSWD: ALL\n" % us[1]
        files["etc/sudoers.d/old~"] = "%s ALL=(ALL) NOPASSWD: ALL\n" % us[2]
        files["etc/sudoers.d/95-temp.disabled"] = "%s ALL=(ALL) NOPASSWD: ALL\n%%wheel ALL=(ALL) NOPASSWD: ALL\n" % us[5]
        files["etc/sudoers.d/50-monitoring"] = "# monitoring\n%s ALL=(root) NOPASSWD: /usr/bin/journalctl\n" % us[5]
    line = 1
    for text, who in main:
        if who:
            st["sudo_rules"].append(("/etc/sudoers", line, who))
        line += text.count("\n") + 1
    for _, _, who in st["sudo_rules"]:
        truth.update(("sudo_nopasswd_all", u) for u in who)
    files["etc/sudoers"] = "\n".join(x for x, _ in main) + "\n"


def accounts(rng, hard, st):
    truth, files = st["truth"], st["files"]
    pw, sh = ["root:x:0:0:root:/root:/bin/bash"], ["root:$6$abc$hash:19000:0:99999:7:::"]
    for i, u in enumerate(USERS):
        pw.append("%s:x:%d:%d::/home/%s:/bin/bash" % (u, 1000 + i, 1000 + i, u))
        h = rng.choice(["$6$salt$h%d" % i, "!", "*", "!!", "!$6$old$h%d" % i])
        if rng.random() < 0.2:
            h = ""
            truth.add(("empty_password", u))
        sh.append("%s:%s:19000:0:99999:7:::" % (u, h))
    for name in rng.sample(["toor", "backup0", "svc_admin"], rng.randint(0, 2)):
        pw.insert(rng.randint(1, len(pw)), "%s:x:0:0::/root:/bin/sh" % name)
        sh.append("%s:$6$x$y:19000:0:99999:7:::" % name)
        truth.add(("uid0_nonroot", name))
    pw.insert(3, "# legacy accounts below")
    if hard:
        pw.insert(5, "")
        sh.insert(2, "# locked service accounts")
    files["etc/passwd"] = "\n".join(pw) + "\n"
    files["etc/shadow"] = "\n".join(sh) + "\n"


def accept(rng, st, full):
    """Accepted risks: some planted findings, a stale line, comments."""
    truth = sorted(st["truth"])
    acc = set(rng.sample(truth, min(len(truth), rng.randint(1, 2))))
    if full and st.get("suid_ww"):
        acc.add(("world_writable", st["suid_ww"]))
        acc.discard(("suid_unexpected", st["suid_ww"]))
    lines = ["# accepted risks (rule target  # ticket)"]
    for r, t in sorted(acc):
        lines.append("%s %s  # SEC-%d" % (r, t, rng.randint(100, 999)))
    lines.append("world_writable /srv/legacy/gone.txt  # SEC-1 (file removed since)")
    st["files"]["accepted.txt"] = "\n".join(lines) + "\n"
    st["accepted"] = acc


def plan(st):
    """The remediation plan from the planted records: the fix of every finding that is not accepted."""
    live = st["truth"] - st["accepted"]
    acts = [("remove_user", u) for r, u in live if r == "uid0_nonroot"]
    acts += [("lock", u) for r, u in live if r == "empty_password"]
    for f, line, who in st["sudo_rules"]:
        if any(("sudo_nopasswd_all", u) in live for u in who):
            acts.append(("sudo_remove", f, line))
    if ("ssh_root_login", "sshd") in live:
        acts.append(("sshd_set", "PermitRootLogin", "no"))
    if ("ssh_password_auth", "sshd") in live:
        acts.append(("sshd_set", "PasswordAuthentication", "no"))
    for path in {t for r, t in live if r in FILE_RULES}:
        m = st["modes"][path]
        for r in ("world_writable", "suid_unexpected", "authorized_keys_perms"):
            if (r, path) in live:
                m &= ~{"world_writable": 0o002, "suid_unexpected": 0o6000, "authorized_keys_perms": 0o022}[r]
        if ("ww_dir_no_sticky", path) in live:
            m |= 0o1000
        acts.append(("chmod", path, m & 0o7777))

    def key(a):
        if a[0] == "sudo_remove":
            return (KIND_RANK[a[0]], a[1], -a[2])
        return (KIND_RANK[a[0]],) + a[1:]
    return sorted(acts, key=key)


def build(rng, kind, exposure=None):
    """kind: plain | modes | sshd | sudo | full. Returns (files {relpath: bytes}, info)."""
    full = kind == "full"
    st = {"truth": set(), "modes": {}, "files": {}, "sudo_rules": [], "accepted": set()}
    fstxt = fs(rng, kind in ("modes", "full"), st)
    gz = kind in ("modes", "full") and rng.random() < 0.6
    st["files"]["fs.txt.gz" if gz else "fs.txt"] = fstxt
    sshd(rng, kind in ("sshd", "full"), st)
    sudo(rng, kind in ("sudo", "full"), st)
    accounts(rng, kind != "plain", st)
    accept(rng, st, full)
    exposure = exposure or rng.choice(["internet", "internal"])
    st["files"]["host.json"] = json.dumps({"role": rng.choice(["web", "db", "batch", "bastion"]), "exposure": exposure}) + "\n"
    out = {}
    for k, v in st["files"].items():
        b = v.encode()
        out[k] = gzip.compress(b, mtime=0) if k.endswith(".gz") else b
    live = st["truth"] - st["accepted"]
    return out, {"truth": st["truth"], "accepted": st["accepted"], "plan": plan(st), "exposure": exposure,
                 "risk": sum(WEIGHT[r] for r, _ in live) * (2 if exposure == "internet" else 1), "live": len(live)}


def fleet(rng, n):
    """A fleet of n hosts: {host: (files, info)} plus its summary from the planted findings."""
    hosts = {}
    names = rng.sample(["web-01", "web-02", "db-01", "db-02", "bastion", "batch-01", "batch-02", "mail", "ci-runner", "vpn"], n)
    exposures = (["internet", "internal"] * n)[:n]
    rng.shuffle(exposures)
    for h, e in zip(names, exposures):
        hosts[h] = build(rng, rng.choice(["full", "full", "modes", "sshd", "sudo"]), e)
    counts = {r: 0 for r in RULES}
    for _, info in hosts.values():
        for r, _ in info["truth"] - info["accepted"]:
            counts[r] += 1
    ranking = sorted(({"host": h, "risk": i["risk"], "findings": i["live"]} for h, (_, i) in hosts.items()),
                     key=lambda e: (-e["risk"], e["host"]))
    return hosts, {"hosts": n, "rule_counts": counts, "ranking": ranking}


def action_json(a):
    if a[0] == "chmod":
        return {"action": "chmod", "path": a[1], "mode": "%04o" % a[2]}
    if a[0] == "sshd_set":
        return {"action": "sshd_set", "keyword": a[1], "value": a[2]}
    if a[0] == "sudo_remove":
        return {"action": "sudo_remove", "file": a[1], "line": a[2]}
    return {"action": a[0], "user": a[1]}
