"""Effective sshd settings: Include globs, first value wins, Match blocks ignored."""
import glob, os, re


def effective(snap):
    eff = {}

    def load(path):
        in_match = False
        for raw in open(path, encoding="utf-8").read().splitlines():
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
                    for f in sorted(glob.glob(snap.path(pat))):
                        load(f)
                continue
            if not in_match and key not in eff:
                eff[key] = val.lower()

    load(snap.path("/etc/ssh/sshd_config"))
    return eff


def sshd_findings(snap, out):
    eff = effective(snap)
    if eff.get("permitrootlogin", "prohibit-password") == "yes":
        out.add(("ssh_root_login", "sshd"))
    if eff.get("passwordauthentication", "yes") == "yes":
        out.add(("ssh_password_auth", "sshd"))
