"""Snapshot manifests: snapshots/ID.json (docs/FORMAT.md section 4)."""
import json
import os

from . import timeutil
from .store import RepoError

KEYS = ("path", "type", "mode", "mtime", "size", "chunks", "target")


def load_all(repo):
    out = []
    d = os.path.join(repo, "snapshots")
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if name.endswith(".json"):
            with open(os.path.join(d, name)) as f:
                out.append(json.load(f))
    out.sort(key=lambda s: (s["time"], s["id"]))
    return out


def save(repo, snap):
    path = os.path.join(repo, "snapshots", snap["id"] + ".json")
    if os.path.exists(path):
        raise RepoError("snapshot %s already exists" % snap["id"])
    with open(path, "w") as f:
        json.dump(snap, f, indent=1, sort_keys=True)
        f.write("\n")


def newest(repo):
    snaps = load_all(repo)
    return snaps[-1] if snaps else None


def resolve(repo, ref):
    """A snapshot by id, by `latest`, or by time: the newest snapshot taken at or before it."""
    snaps = load_all(repo)
    if ref == "latest":
        if not snaps:
            raise RepoError("the repository has no snapshots")
        return snaps[-1]
    if timeutil.is_time(ref):
        at = timeutil.parse(ref)
        best = None
        for s in snaps:
            if timeutil.parse(s["time"]) <= at:
                best = s
        if best is None:
            raise RepoError("no snapshot at or before %s" % ref)
        return best
    for s in snaps:
        if s["id"] == ref:
            return s
    raise RepoError("no snapshot %s" % ref)
