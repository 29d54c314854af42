"""diff: what changed between two snapshots."""
FIELDS = ("type", "mtime", "size", "chunks", "target")


def changes(a, b):
    old = {e["path"]: e for e in a["entries"]}
    new = {e["path"]: e for e in b["entries"]}
    rows = []
    for path in sorted(set(old) | set(new)):
        if path not in new:
            rows.append(("removed", path))
        elif path not in old:
            rows.append(("added", path))
        elif any(old[path].get(k) != new[path].get(k) for k in FIELDS):
            rows.append(("modified", path))
    return rows
