"""restore: writes a snapshot's tree into DEST (docs/FORMAT.md section 5)."""
import os

from . import store


def run(repo, snap, dest):
    index = store.Index(repo)
    os.makedirs(dest, exist_ok=True)
    dirs = []
    for e in sorted(snap["entries"], key=lambda e: e["path"]):
        path = os.path.join(dest, *e["path"].split("/"))
        parent = os.path.dirname(path)
        if not os.path.isdir(parent):
            os.makedirs(parent)
        if e["type"] == "dir":
            continue  # directories are made with their contents
        elif e["type"] == "symlink":
            os.symlink(e["target"], path)
        else:
            for n, cid in enumerate(e["chunks"]):
                with open(path, "ab" if n else "wb") as f:
                    f.write(index.read(cid))
            if e["chunks"]:
                os.utime(path, (e["mtime"], e["mtime"]))
    # directory modes last, deepest first, so a read-only directory does not block its contents
    for path, e in sorted(dirs, key=lambda t: t[1]["path"].count("/"), reverse=True):
        os.chmod(path, e["mode"])
