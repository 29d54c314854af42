"""Walks a source tree into manifest entries (docs/FORMAT.md section 4). Links are stored, never followed."""
import os
import stat


def entry(path, kind, mode=0, mtime=0, size=0, target=""):
    return {"path": path, "type": kind, "mode": mode, "mtime": mtime, "size": size, "chunks": [], "target": target}


def walk(src):
    """Every entry below src (src itself excluded), sorted by path; files carry their absolute path in _abs."""
    out = []

    def visit(rel_dir):
        base = os.path.join(src, rel_dir) if rel_dir else src
        for name in sorted(os.listdir(base)):
            rel = rel_dir + "/" + name if rel_dir else name
            full = os.path.join(base, name)
            st = os.lstat(full)
            if os.path.isdir(full):
                out.append(entry(rel, "dir", mode=stat.S_IMODE(os.stat(full).st_mode) & 0o777))
                visit(rel)
            elif stat.S_ISLNK(st.st_mode):
                out.append(entry(rel, "symlink", target=os.readlink(full)))
            elif stat.S_ISREG(st.st_mode):
                e = entry(rel, "file", mode=stat.S_IMODE(st.st_mode) & 0o777, mtime=int(st.st_mtime), size=st.st_size)
                e["_abs"] = full
                out.append(e)
            # sockets, fifos and devices are skipped

    visit("")
    out.sort(key=lambda e: e["path"])
    return out
