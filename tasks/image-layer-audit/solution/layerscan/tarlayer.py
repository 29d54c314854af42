"""One layer tarball as a list of normalised entries."""
import io
import posixpath
import tarfile

WHITEOUT = ".wh."
OPAQUE = ".wh..wh..opq"


def norm(name):
    """Archive member name -> absolute image path ("./usr/bin/" -> "/usr/bin")."""
    p = posixpath.normpath("/" + name.lstrip("/"))
    while p.startswith("//"):
        p = p[1:]
    return p


class Entry:
    __slots__ = ("path", "kind", "mode", "uid", "gid", "data", "link")

    def __init__(self, path, kind, mode, uid, gid, data=b"", link=""):
        self.path, self.kind, self.mode, self.uid, self.gid = path, kind, mode, uid, gid
        self.data, self.link = data, link

    @property
    def name(self):
        return posixpath.basename(self.path)

    def is_opaque(self):
        return self.name == OPAQUE

    def is_whiteout(self):
        return self.name.startswith(WHITEOUT) and not self.is_opaque()

    def whited_path(self):
        return posixpath.join(posixpath.dirname(self.path), self.name[len(WHITEOUT):])


def read_layer(raw):
    out = []
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tf:
        for m in tf:
            path = norm(m.name)
            if path == "/":
                continue
            mode = m.mode & 0o7777
            if m.isdir():
                out.append(Entry(path, "dir", mode, m.uid, m.gid))
            elif m.issym():
                out.append(Entry(path, "symlink", mode, m.uid, m.gid, link=m.linkname))
            elif m.islnk():
                out.append(Entry(path, "hardlink", mode, m.uid, m.gid, link=norm(m.linkname)))
            elif m.isreg():
                out.append(Entry(path, "file", mode, m.uid, m.gid, data=tf.extractfile(m).read()))
            # devices and fifos carry no findings and are skipped
    return out
