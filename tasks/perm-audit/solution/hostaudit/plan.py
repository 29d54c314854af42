"""Remediation plan: the fix of every finding that is not accepted, in the policy's order."""
from .accounts import account_findings
from .files import file_findings
from .sshd import sshd_findings
from .sudoers import rules

RANK = {"remove_user": 0, "lock": 1, "sudo_remove": 2, "sshd_set": 3, "chmod": 4}
CLEAR = {"world_writable": 0o002, "suid_unexpected": 0o6000, "authorized_keys_perms": 0o022}


def plan(snap):
    acc = snap.accepted()
    found, modes = set(), {}
    file_findings(snap, found, modes)
    sshd_findings(snap, found)
    account_findings(snap, found)
    live = found - acc
    acts = []
    for r, t in sorted(live):
        if r == "uid0_nonroot":
            acts.append({"action": "remove_user", "user": t})
        elif r == "empty_password":
            acts.append({"action": "lock", "user": t})
    for grantees, f, n in rules(snap):
        if any(("sudo_nopasswd_all", u) not in acc for u in grantees):
            acts.append({"action": "sudo_remove", "file": f, "line": n})
    if ("ssh_root_login", "sshd") in live:
        acts.append({"action": "sshd_set", "keyword": "PermitRootLogin", "value": "no"})
    if ("ssh_password_auth", "sshd") in live:
        acts.append({"action": "sshd_set", "keyword": "PasswordAuthentication", "value": "no"})
    paths = sorted({t for r, t in live if r in ("world_writable", "ww_dir_no_sticky", "suid_unexpected", "authorized_keys_perms")})
    for p in paths:
        m = modes[p]
        for r, bits in CLEAR.items():
            if (r, p) in live:
                m &= ~bits
        if ("ww_dir_no_sticky", p) in live:
            m |= 0o1000
        acts.append({"action": "chmod", "path": p, "mode": "%04o" % (m & 0o7777)})

    def key(a):
        k = a["action"]
        if k == "sudo_remove":
            return (RANK[k], a["file"], -a["line"])
        return (RANK[k], a.get("user") or a.get("keyword") or a.get("path"), "")
    return sorted(acts, key=key)
