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
            if not os.path.isdir(path):
                os.mkdir(path)
            dirs.append((path, e))
        elif e["type"] == "symlink":
            os.symlink(e["target"], path)
        else:
            with open(path, "wb") as f:
                for cid in e["chunks"]:
                    f.write(index.read(cid))
            os.chmod(path, e["mode"])
            os.utime(path, (e["mtime"], e["mtime"]))
    # directory modes last, deepest first, so a read-only directory does not block its contents
    for path, e in sorted(dirs, key=lambda t: t[1]["path"].count("/"), reverse=True):
        os.chmod(path, e["mode"])
