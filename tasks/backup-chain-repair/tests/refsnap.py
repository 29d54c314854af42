"""The grader's own snapkit model, written from docs/FORMAT.md: planned trees, a chunk cutter over
prefix hashes, a repository writer (packs, index files, repacks, planted defects) and the expected
answers of restore, diff, forget and audit, all derived from the plans."""
import hashlib
import json
import os
from datetime import datetime, timedelta

U32 = 0xFFFFFFFF
P, W, LO, HI = 1000003, 16, 256, 1024
PW = pow(P, W, 1 << 32)


def sha(b):
    return hashlib.sha256(b).hexdigest()


def cut_points(data):
    """Chunk end offsets: window hashes from a prefix table F (F[j] hashes data[:j])."""
    F = [0]
    for b in data:
        F.append((F[-1] * P + b) & U32)
    ends, s, n = [], 0, len(data)
    while s < n:
        e = None
        for end in range(s + LO, min(s + HI, n) + 1):
            if end == s + HI:
                e = end
                break
            if ((F[end] - F[end - W] * PW) & U32) & 0xFF == 0:
                e = end
                break
        e = n if e is None else e
        ends.append(e)
        s = e
    return ends


def pieces(data):
    ends = cut_points(data)
    return [data[a:b] for a, b in zip([0] + ends[:-1], ends)]


def max_tail(rnd, lead):
    """Random bytes, then a run of 0x01 bytes (no content boundary), cut where a 1024-byte chunk ends."""
    data = rnd.randbytes(lead) + b"\x01" * 3000
    ends = cut_points(data)
    starts = [0] + ends[:-1]
    for a, b in zip(starts, ends):
        if b - a == HI and b > lead + W:
            return data[:b]
    raise ValueError("no forced cut")


def content(rnd, kind):
    if kind == "empty":
        return b""
    if kind == "tail":
        return max_tail(rnd, rnd.randint(0, 2500))
    if kind == "text":
        words = [b"alpha", b"beta", b"gamma", b"delta", b"backup", b"chunk", b"pack", b"index", b"\n"]
        out = b" ".join(rnd.choice(words) for _ in range(rnd.randint(200, 900)))
        return out
    if kind == "small":
        return rnd.randbytes(rnd.randint(1, 255))
    return rnd.randbytes(rnd.randint(600, 5000))


FILE_MODES = (0o644, 0o644, 0o755, 0o664, 0o444, 0o600, 0o640)
DIR_MODES = (0o755, 0o755, 0o775, 0o700, 0o750)


def plan_tree(rnd, extra=0, safe_modes=False):
    """path -> node; node: {"type", "mode", "mtime", "data"} / {"type": "dir", "mode"} / {"type": "symlink", "target"}."""
    fm = tuple(m for m in FILE_MODES if m & 0o004) if safe_modes else FILE_MODES
    dm = tuple(m for m in DIR_MODES if m & 0o005 == 0o005) if safe_modes else DIR_MODES
    t = {}
    dirs = ["docs", "src", "src/lib", "data", rnd.choice(["logs", "tmp", "cache"])]
    for d in dirs:
        t[d] = {"type": "dir", "mode": rnd.choice(dm)}
    t["empty-dir"] = {"type": "dir", "mode": rnd.choice(dm)}
    t["data/void"] = {"type": "dir", "mode": rnd.choice(dm)}
    kinds = ["rand", "rand", "text", "tail", "tail", "empty", "small", "rand"] + ["rand"] * extra
    for i, kind in enumerate(kinds):
        d = rnd.choice(dirs + [""])
        name = "%s%s-%d.%s" % (d + "/" if d else "", rnd.choice(["notes", "img", "blob", "conf", "db"]), i, rnd.choice(["bin", "txt", "dat"]))
        t[name] = {"type": "file", "mode": rnd.choice(fm), "mtime": 1700000000 + rnd.randint(0, 9000000), "data": content(rnd, kind)}
    t["link-src"] = {"type": "symlink", "target": "src"}
    t["docs/readme-link"] = {"type": "symlink", "target": "../" + rnd.choice([p for p, n in t.items() if n["type"] == "file"])}
    t["dangling"] = {"type": "symlink", "target": "nowhere/%d" % rnd.randint(1, 99)}
    return t


def entries_of(tree, reuse=None):
    """Manifest entries of a planned tree; reuse: path -> chunk list taken over from the parent."""
    out = []
    for path in sorted(tree):
        n = tree[path]
        e = {"path": path, "type": n["type"], "mode": 0, "mtime": 0, "size": 0, "chunks": [], "target": ""}
        if n["type"] == "file":
            e.update(mode=n["mode"], mtime=n["mtime"], size=len(n["data"]))
            e["chunks"] = list(reuse[path]) if reuse and path in reuse else [sha(c) for c in pieces(n["data"])]
        elif n["type"] == "dir":
            e["mode"] = n["mode"]
        else:
            e["target"] = n["target"]
        out.append(e)
    return out


def listing_of(tree, chunk_bytes=None, entries=None):
    """What a restore of the tree looks like: [path, type, mode, mtime, size, sha256, target] rows.
    With entries and chunk_bytes the file bytes come from the manifest's chunks."""
    rows = []
    by_path = {e["path"]: e for e in entries} if entries else {}
    for path in sorted(tree):
        n = tree[path]
        if n["type"] == "file":
            data = b"".join(chunk_bytes[c] for c in by_path[path]["chunks"]) if entries else n["data"]
            rows.append([path, "file", n["mode"], n["mtime"], len(data), sha(data), ""])
        elif n["type"] == "dir":
            rows.append([path, "dir", n["mode"], 0, 0, "", ""])
        else:
            rows.append([path, "symlink", 0, 0, 0, "", n["target"]])
    return rows


def stamp(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def sid(t):
    return t.replace("-", "").replace(":", "")


class RepoWriter:
    """Writes a repository as bytes in memory: self.files maps relative path -> bytes."""

    def __init__(self, offset, rnd):
        self.rnd = rnd
        self.files = {"config.json": json.dumps({"format": "snapkit-1", "utc_offset_minutes": offset}).encode()}
        self.loc = {}       # chunk id -> (pack, offset, length), the effective entry
        self.bytes = {}     # chunk id -> bytes
        self.seq = 0
        self.snaps = []     # manifests in time order

    def _index(self, entries):
        self.seq += 1
        name = "index/%s.json" % ("%06d" % self.seq if self.rnd.random() < 0.7 else "i%x" % self.rnd.getrandbits(24))
        self.files[name] = json.dumps({"seq": self.seq, "entries": entries}).encode()

    def _pack(self, chunks):
        name = "p%016x" % self.rnd.getrandbits(64)
        blob, entries = b"", []
        for cid, data in chunks:
            entries.append({"id": cid, "pack": name, "offset": len(blob), "length": len(data)})
            self.loc[cid] = (name, len(blob), len(data))
            blob += data
        self.files["packs/%s.pack" % name] = blob
        self.rnd.shuffle(entries)
        self._index(entries)
        return name

    def add(self, time, entries, chunk_data, parent="auto"):
        fresh = []
        for e in entries:
            for c in e["chunks"]:
                if c not in self.bytes and c in chunk_data:
                    self.bytes[c] = chunk_data[c]
                    fresh.append((c, chunk_data[c]))
        if fresh:
            self._pack(fresh)
        par = (self.snaps[-1]["id"] if self.snaps else None) if parent == "auto" else parent
        snap = {"id": sid(time), "time": time, "parent": par, "entries": entries}
        self.snaps.append(snap)
        self.files["snapshots/%s.json" % snap["id"]] = json.dumps(snap, indent=self.rnd.choice([None, 1])).encode()
        return snap

    def repack(self):
        """Copies every live chunk into one new pack (new order) under a higher seq; old packs go."""
        ids = sorted(self.loc)
        self.rnd.shuffle(ids)
        for k in [k for k in self.files if k.startswith("packs/")]:
            del self.files[k]
        return self._pack([(c, self.bytes[c]) for c in ids])

    def write(self, root):
        for rel, data in sorted(self.files.items()):
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        for sub in ("packs", "index", "snapshots"):
            os.makedirs(os.path.join(root, sub), exist_ok=True)


def materialize(tree, root):
    os.makedirs(root)
    for path in sorted(tree):
        n = tree[path]
        full = os.path.join(root, path)
        if n["type"] == "dir":
            os.makedirs(full, exist_ok=True)
        elif n["type"] == "symlink":
            os.symlink(n["target"], full)
        else:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(n["data"])
    for path in sorted(tree, key=lambda p: -p.count("/")):
        n = tree[path]
        full = os.path.join(root, path)
        if n["type"] == "file":
            os.chmod(full, n["mode"])
            os.utime(full, (n["mtime"], n["mtime"]))
        elif n["type"] == "dir":
            os.chmod(full, n["mode"])


def diff_rows(a, b):
    """Expected diff of two entry lists (own route: a set of (path, fields) tuples per side)."""
    def key(e):
        return (e["type"], e["mode"], e["mtime"], e["size"], tuple(e["chunks"]), e["target"])
    A = {e["path"]: key(e) for e in a}
    B = {e["path"]: key(e) for e in b}
    rows = [("removed", p) for p in A if p not in B] + [("added", p) for p in B if p not in A]
    rows += [("modified", p) for p in A if p in B and A[p] != B[p]]
    return sorted(rows, key=lambda r: r[1])


def forget_rows(snaps, offset, keep):
    """Expected plan: group snapshots by period, newest snapshot of each of the N newest periods."""
    times = sorted((s["time"], s["id"]) for s in snaps)[::-1]
    loc = {i: datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ") + timedelta(minutes=offset) for t, i in times}
    keyf = {"daily": lambda d: (d.year, d.month, d.day),
            "weekly": lambda d: tuple(d.isocalendar())[:2],
            "monthly": lambda d: (d.year, d.month)}
    why = {i: [] for _, i in times}
    for _, i in times[:keep.get("last", 0)]:
        why[i].append("last")
    for rule in ("daily", "weekly", "monthly"):
        groups = {}
        for t, i in times:
            groups.setdefault(keyf[rule](loc[i]), []).append((t, i))
        for k in sorted(groups, reverse=True)[:keep.get(rule, 0)]:
            why[max(groups[k])[1]].append(rule)
    return [(i, t, "keep" if why[i] else "remove", ";".join(why[i])) for t, i in times]
