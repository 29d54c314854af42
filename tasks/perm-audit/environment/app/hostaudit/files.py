"""File-mode rules over the listing."""
import os
from .modes import parse_mode


def entries(snap):
    """(type, bits, path) per listing line."""
    out = []
    for line in snap.listing():
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        t, bits = parse_mode(parts[0])
        out.append((t, bits, parts[3]))
    return out


def allowlist(snap):
    if not snap.exists("allowlist_suid.txt"):
        return set()
    return {l.strip() for l in snap.read("allowlist_suid.txt").splitlines() if l.strip() and not l.startswith("#")}


def file_findings(snap, out, modes=None):
    allow = allowlist(snap)
    for t, bits, path in entries(snap):
        if modes is not None:
            modes[path] = bits
        if t in ("-", "l"):
            if bits & 0o002:
                out.add(("world_writable", path))
            if bits & 0o6000 and path not in allow:
                out.add(("suid_unexpected", path))
            if os.path.basename(path) == "authorized_keys" and bits & 0o022:
                out.add(("authorized_keys_perms", path))
        elif t == "d" and bits & 0o002 and not bits & 0o1000:
            out.add(("ww_dir_no_sticky", path))
