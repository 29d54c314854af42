"""Secret patterns (docs/SPEC.md section 5) in the final image and in the layers' history."""
import re

RULES = [
    ("private-key", re.compile(rb"-----BEGIN (?:RSA |DSA )?PRIVATE KEY-----")),
    ("aws-access-key", re.compile(rb"(?<![A-Z0-9])AKIA[0-9A-Z]{16}(?![A-Z0-9])")),
    ("github-token", re.compile(rb"(?<![A-Za-z0-9_])ghp_[A-Za-z0-9]{36}(?![A-Za-z0-9])")),
]


def rules_in(data):
    return sorted({rid for rid, rx in RULES if rx.search(data)})


def final_secrets(fs):
    out = []
    for path, node in fs.nodes.items():
        data = fs.content(node) if node.kind in ("file", "hardlink") else None
        if data is not None:
            for rid in rules_in(data):
                out.append(("SECRET", path, rid, None))
    return out


def leaked_secrets(fs, layers):
    """Secrets written by a layer's regular-file entry whose content the final image no longer
    holds at that path (deleted, replaced, hidden by an opaque directory)."""
    out = set()
    for idx, entries in enumerate(layers):
        for e in entries:
            if e.kind != "file" or e.is_whiteout() or e.is_opaque():
                continue
            found = rules_in(e.data)
            if not found:
                continue
            now = fs.nodes.get(e.path)
            if now is not None and now.kind == "file" and now.data == e.data:
                continue
            for rid in found:
                out.add(("LEAKED_SECRET", e.path, rid, idx))
    return sorted(out)
