"""One scan: verify the blobs, rebuild the file system, collect every finding."""
import os

from . import blobs, dpkg, perms, secrets, tarlayer, vulns
from .rootfs import RootFS


def scan_image(image_dir, feed):
    lay, manifest, config, layers = blobs.open_image(image_dir)
    name = os.path.basename(os.path.normpath(image_dir))
    if lay.bad or manifest is None:
        return {"image": name, "verified": False, "bad_blobs": sorted(lay.bad), "findings": []}
    parsed = [tarlayer.read_layer(raw) for _, raw in layers]
    fs = RootFS()
    for idx, entries in enumerate(parsed):
        fs.apply(entries, idx)
    found = set()
    found.update(perms.permission_findings(fs))
    found.update(secrets.final_secrets(fs))
    found.update(secrets.leaked_secrets(fs, parsed))
    found.update(vulns.vuln_findings(dpkg.installed_packages(fs), feed))
    return {"image": name, "verified": True, "bad_blobs": [], "findings": to_rows(found)}


def sort_key(f):
    return (f[0], f[1], f[2], -1 if f[3] is None else f[3])


def to_rows(found):
    return [{"kind": k, "path": p, "detail": d, "layer": l} for k, p, d, l in sorted(found, key=sort_key)]


def from_rows(rows):
    return {(r["kind"], r["path"], r["detail"], r.get("layer")) for r in rows}
