"""Repository layout: config.json, packs/NAME.pack, index/SEQ.json (docs/FORMAT.md section 3)."""
import hashlib
import json
import os

from . import FORMAT


class RepoError(Exception):
    pass


def init(repo, utc_offset=0):
    if os.path.exists(os.path.join(repo, "config.json")):
        raise RepoError("%s is already a repository" % repo)
    for sub in ("packs", "index", "snapshots"):
        os.makedirs(os.path.join(repo, sub), exist_ok=True)
    with open(os.path.join(repo, "config.json"), "w") as f:
        json.dump({"format": FORMAT, "utc_offset_minutes": int(utc_offset)}, f, indent=1, sort_keys=True)
        f.write("\n")


def config(repo):
    path = os.path.join(repo, "config.json")
    if not os.path.exists(path):
        raise RepoError("%s is not a repository (no config.json)" % repo)
    with open(path) as f:
        cfg = json.load(f)
    if cfg.get("format") != FORMAT:
        raise RepoError("unknown repository format %r" % cfg.get("format"))
    return cfg


def index_files(repo):
    """[(seq, entries)] of every index file, ascending seq."""
    out = []
    d = os.path.join(repo, "index")
    for name in os.listdir(d) if os.path.isdir(d) else []:
        if not name.endswith(".json"):
            continue
        with open(os.path.join(d, name)) as f:
            doc = json.load(f)
        out.append((int(doc["seq"]), doc["entries"]))
    out.sort(key=lambda t: t[0])
    return out


class Index:
    """The effective index: for each chunk id the entry of the index file with the highest seq."""

    def __init__(self, repo):
        self.repo = repo
        self.files = index_files(repo)
        self.table = {}
        for _seq, entries in self.files:
            for e in entries:
                self.table.setdefault(e["id"], e)

    def __contains__(self, cid):
        return cid in self.table

    def get(self, cid):
        return self.table.get(cid)

    def next_seq(self):
        return (self.files[-1][0] + 1) if self.files else 1

    def read(self, cid):
        e = self.table.get(cid)
        if e is None:
            raise RepoError("chunk %s is not in the index" % cid)
        with open(pack_path(self.repo, e["pack"]), "rb") as f:
            f.seek(e["offset"])
            data = f.read(e["length"])
        if len(data) != e["length"] or hashlib.sha256(data).hexdigest() != cid:
            raise RepoError("chunk %s is damaged in pack %s" % (cid, e["pack"]))
        return data


def pack_path(repo, name):
    return os.path.join(repo, "packs", name + ".pack")


def write_pack(repo, index, chunks):
    """Writes the new chunks [(id, bytes)] as one pack and one index file; returns the pack name."""
    if not chunks:
        return None
    blob = b"".join(data for _cid, data in chunks)
    name = hashlib.sha256(blob).hexdigest()
    with open(pack_path(repo, name), "wb") as f:
        f.write(blob)
    entries = []
    offset = 0
    for cid, data in chunks:
        entries.append({"id": cid, "pack": name, "offset": offset, "length": len(data)})
        offset += len(data)
    seq = index.next_seq()
    with open(os.path.join(repo, "index", "%06d.json" % seq), "w") as f:
        json.dump({"seq": seq, "entries": entries}, f, indent=1)
        f.write("\n")
    return name
