"""The grader's own writer of OCI image layouts: ustar headers packed by hand, blobs named by the
sha256 of their stored bytes. Nothing here reads a tarball back."""
import gzip
import hashlib
import json
import os

BLOCK = 512
TYPES = {"file": b"0", "hardlink": b"1", "symlink": b"2", "dir": b"5"}
LAYER_TAR = "application/vnd.oci.image.layer.v1.tar"
LAYER_GZ = "application/vnd.oci.image.layer.v1.tar+gzip"
LAYER_DOCKER_GZ = "application/vnd.docker.image.rootfs.diff.tar.gzip"


def _field(value, width):
    raw = value.encode("utf-8") if isinstance(value, str) else value
    assert len(raw) <= width, "tar field too long: %r" % value
    return raw + b"\0" * (width - len(raw))


def _num(n, width):
    return ("%0*o" % (width - 1, n)).encode("ascii") + b"\0"


def header(name, kind, mode, uid=0, gid=0, size=0, link=""):
    parts = [
        _field(name, 100), _num(mode, 8), _num(uid, 8), _num(gid, 8), _num(size, 12),
        _num(1767225600, 12), b" " * 8, TYPES[kind], _field(link, 100),
        b"ustar\x0000", _field("root" if uid == 0 else "app", 32), _field("root" if gid == 0 else "app", 32),
        _num(0, 8), _num(0, 8), _field("", 155),
    ]
    block = b"".join(parts)
    block += b"\0" * (BLOCK - len(block))
    total = sum(block)
    return block[:148] + ("%06o\0 " % total).encode("ascii") + block[156:]


def tar_bytes(entries):
    """entries: dicts {name, kind, mode, uid, gid, data, link} in archive order."""
    out = bytearray()
    for e in entries:
        data = e.get("data", b"") if e["kind"] == "file" else b""
        out += header(e["name"], e["kind"], e["mode"], e.get("uid", 0), e.get("gid", 0), len(data), e.get("link", ""))
        out += data
        if len(data) % BLOCK:
            out += b"\0" * (BLOCK - len(data) % BLOCK)
    out += b"\0" * (BLOCK * 2)
    return bytes(out)


def digest_of(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


class Layout:
    """Collects blobs in memory; files() gives {relative path: bytes}."""

    def __init__(self):
        self.blobs = {}

    def put(self, data):
        d = digest_of(data)
        self.blobs[d] = data
        return d

    def put_json(self, obj):
        data = json.dumps(obj, indent=1, sort_keys=True).encode("utf-8")
        return self.put(data), len(data)

    def image(self, layers, arch="amd64"):
        """layers: [(tar bytes, media type)] bottom first -> the manifest's descriptor."""
        descs, diff_ids = [], []
        for raw, media in layers:
            stored = gzip.compress(raw, mtime=0) if media != LAYER_TAR else raw
            descs.append({"mediaType": media, "digest": self.put(stored), "size": len(stored)})
            diff_ids.append(digest_of(raw))
        cfg = {"architecture": arch, "os": "linux", "rootfs": {"type": "layers", "diff_ids": diff_ids},
               "config": {"Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]},
               "history": [{"created_by": "layer %d" % i} for i in range(len(layers))]}
        cd, cs = self.put_json(cfg)
        man = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
               "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": cd, "size": cs},
               "layers": descs}
        md, ms = self.put_json(man)
        return {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": md, "size": ms,
                "platform": {"architecture": arch, "os": "linux"}}, man

    def files(self, manifests, platforms=True):
        out = {"oci-layout": b'{"imageLayoutVersion": "1.0.0"}\n'}
        mans = []
        for m in manifests:
            m = dict(m)
            if not platforms:
                m.pop("platform", None)
            mans.append(m)
        out["index.json"] = json.dumps({"schemaVersion": 2, "manifests": mans}, indent=1).encode("utf-8")
        for d, data in self.blobs.items():
            out["blobs/sha256/" + d.split(":", 1)[1]] = data
        return out


def write_tree(root, files):
    for rel, data in sorted(files.items()):
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
