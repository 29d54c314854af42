"""backup: one snapshot of a source tree, reusing the parent's chunk lists for unchanged files."""
from . import chunker, scan, snapshots, store, timeutil


def run(repo, src, when):
    store.config(repo)
    index = store.Index(repo)
    parent = snapshots.newest(repo)
    previous = {}
    if parent is not None:
        if timeutil.parse(when) <= timeutil.parse(parent["time"]):
            raise store.RepoError("snapshot time %s is not after the newest snapshot %s" % (when, parent["time"]))
        previous = {e["path"]: e for e in parent["entries"]}
    fresh = []
    seen = set()
    entries = scan.walk(src)
    for e in entries:
        full = e.pop("_abs", None)
        if e["type"] != "file":
            continue
        old = previous.get(e["path"])
        if old is not None and old["type"] == "file" and old["mtime"] == e["mtime"]:
            e["chunks"] = list(old["chunks"])
            continue
        with open(full, "rb") as f:
            data = f.read()
        e["size"] = len(data)
        for _off, piece in chunker.split(data):
            cid = chunker.chunk_id(piece)
            e["chunks"].append(cid)
            if cid not in index and cid not in seen:
                seen.add(cid)
                fresh.append((cid, piece))
    store.write_pack(repo, index, fresh)
    snap = {"id": timeutil.snapshot_id(when), "time": when,
            "parent": parent["id"] if parent else None, "entries": entries}
    snapshots.save(repo, snap)
    return snap
