"""The image's file system, rebuilt by applying the layers bottom to top."""
import posixpath


class Node:
    __slots__ = ("kind", "mode", "uid", "gid", "data", "target", "layer")

    def __init__(self, kind, mode, uid=0, gid=0, data=b"", target="", layer=None):
        self.kind, self.mode, self.uid, self.gid = kind, mode, uid, gid
        self.data, self.target, self.layer = data, target, layer


class RootFS:
    def __init__(self):
        self.nodes = {"/": Node("dir", 0o755)}

    # -- structure -------------------------------------------------------------------------------
    def children_of(self, path):
        prefix = path.rstrip("/") + "/"
        return [p for p in self.nodes if p.startswith(prefix)]

    def remove(self, path):
        """Removes path and everything below it."""
        for p in self.children_of(path):
            del self.nodes[p]
        self.nodes.pop(path, None)

    def clear_dir(self, path):
        for p in self.children_of(path):
            del self.nodes[p]

    def ensure_parents(self, path):
        parts = path.strip("/").split("/")[:-1]
        cur = ""
        for part in parts:
            cur += "/" + part
            node = self.nodes.get(cur)
            if node is None or node.kind != "dir":
                if node is not None:
                    self.remove(cur)
                self.nodes[cur] = Node("dir", 0o755)

    # -- applying a layer ------------------------------------------------------------------------
    def apply(self, entries, layer):
        # Whiteouts and opaque markers hide what the lower layers left, never this layer's own
        # entries: all of them are applied before any entry of the layer is added.
        for e in entries:
            if e.is_opaque():
                self.clear_dir(posixpath.dirname(e.path))
            elif e.is_whiteout():
                self.remove(e.whited_path())
        for e in entries:
            if e.is_opaque() or e.is_whiteout():
                continue
            self.ensure_parents(e.path)
            old = self.nodes.get(e.path)
            if e.kind == "dir":
                if old is not None and old.kind == "dir":
                    old.mode, old.uid, old.gid = e.mode, e.uid, e.gid
                    continue
                self.remove(e.path)
                self.nodes[e.path] = Node("dir", e.mode, e.uid, e.gid, layer=layer)
            elif e.kind == "hardlink":
                src = self.nodes.get(e.link)
                if src is None or src.kind != "file":
                    raise ValueError("hard link %s to missing file %s" % (e.path, e.link))
                self.remove(e.path)
                # a hard link shares the target's content, mode and owner as they are now
                self.nodes[e.path] = Node("file", src.mode, src.uid, src.gid, data=src.data, layer=layer)
            elif e.kind == "symlink":
                self.remove(e.path)
                self.nodes[e.path] = Node("symlink", e.mode, e.uid, e.gid, target=e.link, layer=layer)
            else:
                self.remove(e.path)
                self.nodes[e.path] = Node("file", e.mode, e.uid, e.gid, data=e.data, layer=layer)

    # -- lookups ---------------------------------------------------------------------------------
    def resolve(self, path, limit=40):
        """Follows symlinks inside the image: absolute targets start at the image root and '..'
        never climbs above it. Returns the final path or None."""
        todo = [p for p in path.split("/") if p]
        cur = []
        hops = 0
        while todo:
            part = todo.pop(0)
            if part == ".":
                continue
            if part == "..":
                if cur:
                    cur.pop()
                continue
            cand = "/" + "/".join(cur + [part])
            node = self.nodes.get(cand)
            if node is None:
                return None
            if node.kind == "symlink":
                hops += 1
                if hops > limit:
                    return None
                target = node.target
                if target.startswith("/"):
                    cur = []
                todo = [p for p in target.split("/") if p] + todo
                continue
            cur.append(part)
        return "/" + "/".join(cur)

    def read_file(self, path):
        real = self.resolve(path)
        node = self.nodes.get(real) if real else None
        if node is None or node.kind != "file":
            return None
        return node.data
