"""audit: checks a repository and lists every defect with a reason code (docs/FORMAT.md section 7)."""
import hashlib
import os

from . import snapshots, store

CODES = ("MISSING_PACK", "INDEX_OUT_OF_RANGE", "CORRUPT_CHUNK", "ORPHAN_PACK",
         "MISSING_CHUNK", "SIZE_MISMATCH", "DANGLING_PARENT")


def findings(repo):
    index = store.Index(repo)
    rows = []
    sizes = {}
    for cid, e in index.table.items():
        path = store.pack_path(repo, e["pack"])
        if not os.path.isfile(path):
            rows.append(("MISSING_PACK", "", "", cid))
            continue
        if e["offset"] < 0 or e["length"] < 0 or e["offset"] + e["length"] > os.path.getsize(path):
            rows.append(("INDEX_OUT_OF_RANGE", "", "", cid))
            continue
        if sizes.get(path) is None:
            with open(path, "rb") as f:
                sizes[path] = f.read()
        data = sizes[path][e["offset"]:e["offset"] + e["length"]]
        if hashlib.sha256(data).hexdigest() != cid:
            rows.append(("CORRUPT_CHUNK", "", "", cid))
    used = {e["pack"] for e in index.table.values()}
    pack_dir = os.path.join(repo, "packs")
    for name in sorted(os.listdir(pack_dir)) if os.path.isdir(pack_dir) else []:
        if name.endswith(".pack") and name[:-5] not in used:
            rows.append(("ORPHAN_PACK", "", "", name[:-5]))
    snaps = snapshots.load_all(repo)
    ids = {s["id"] for s in snaps}
    for s in snaps:
        if s.get("parent") and s["parent"] not in ids:
            rows.append(("DANGLING_PARENT", s["id"], "", s["parent"]))
        for e in s["entries"]:
            if e["type"] != "file":
                continue
            missing = sorted({c for c in e["chunks"] if c not in index})
            for c in missing:
                rows.append(("MISSING_CHUNK", s["id"], e["path"], c))
            if not missing and sum(index.get(c)["length"] for c in e["chunks"]) != e["size"]:
                rows.append(("SIZE_MISMATCH", s["id"], e["path"], ""))
    rows.sort(key=lambda r: (CODES.index(r[0]), r[1], r[2], r[3]))
    return rows
