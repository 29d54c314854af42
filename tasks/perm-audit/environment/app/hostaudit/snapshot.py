"""Access to one host snapshot: its files, gzip-compressed or not, and the snapshot-rooted paths."""
import gzip, json, os


class Snapshot:
    def __init__(self, root):
        self.root = os.path.abspath(root)

    def path(self, p):
        """The snapshot's copy of an absolute host path (/etc/ssh/x -> ROOT/etc/ssh/x)."""
        return os.path.join(self.root, p.lstrip("/"))

    def exists(self, rel):
        return os.path.exists(self.path(rel))

    def read(self, rel):
        with open(self.path(rel), "rb") as f:
            data = f.read()
        return data.decode("utf-8")

    def listing(self):
        """The lines of the file-mode listing."""
        for name in ("fs.txt",):
            if self.exists(name):
                return self.read(name).splitlines()
        return []

    def host(self):
        if not self.exists("host.json"):
            return {}
        return json.loads(self.read("host.json"))

    def accepted(self):
        """Accepted risks: (rule, target) pairs from accepted.txt."""
        out = set()
        if self.exists("accepted.txt"):
            for line in self.read("accepted.txt").splitlines():
                line = line.split("#", 1)[0].split()
                if len(line) >= 2:
                    out.add((line[0], line[1]))
        return out
