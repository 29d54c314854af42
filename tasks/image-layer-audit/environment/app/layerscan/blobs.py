"""Reading an OCI image layout: index.json, the chosen manifest, its config and layer blobs."""
import gzip
import hashlib
import json
import os

GZIP_TYPES = ("application/vnd.oci.image.layer.v1.tar+gzip",
              "application/vnd.docker.image.rootfs.diff.tar.gzip")
WANT_PLATFORM = ("linux", "amd64")


class Layout:
    def __init__(self, root):
        self.root = root
        self.bad = []

    def blob_path(self, digest):
        algo, _, hexpart = digest.partition(":")
        return os.path.join(self.root, "blobs", algo, hexpart)

    def read_blob(self, digest, media=""):
        """The bytes of a blob (layers come back uncompressed), or None when it is missing or does
        not match its digest (recorded as bad either way)."""
        try:
            with open(self.blob_path(digest), "rb") as f:
                data = f.read()
        except OSError:
            self.note_bad(digest)
            return None
        if media in GZIP_TYPES:
            try:
                data = gzip.decompress(data)
            except OSError:
                self.note_bad(digest)
                return None
        if "sha256:" + hashlib.sha256(data).hexdigest() != digest:
            self.note_bad(digest)
            return None
        return data

    def note_bad(self, digest):
        if digest not in self.bad:
            self.bad.append(digest)

    def read_json_blob(self, digest):
        data = self.read_blob(digest)
        return None if data is None else json.loads(data.decode("utf-8"))


def pick_manifest(index):
    manifests = index.get("manifests") or []
    if not manifests:
        raise ValueError("index.json lists no manifest")
    with_platform = [m for m in manifests if m.get("platform")]
    if not with_platform:
        return manifests[0]
    for m in manifests:
        p = m.get("platform") or {}
        if p.get("os") == WANT_PLATFORM[0]:
            return m
    raise ValueError("no linux/amd64 manifest in index.json")


def open_image(root):
    """Returns (layout, manifest, config, layers) where layers are (descriptor, tar bytes) in
    order of application (first = bottom)."""
    lay = Layout(root)
    with open(os.path.join(root, "index.json"), encoding="utf-8") as f:
        index = json.load(f)
    desc = pick_manifest(index)
    manifest = lay.read_json_blob(desc["digest"])
    if manifest is None:
        return lay, None, None, []
    config = lay.read_json_blob(manifest["config"]["digest"])
    layers = []
    # the manifest lists the most recent layer first
    for ld in reversed(manifest.get("layers", [])):
        layers.append((ld, lay.read_blob(ld["digest"], ld.get("mediaType", ""))))
    return lay, manifest, config, layers
