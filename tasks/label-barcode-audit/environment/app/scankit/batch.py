"""Batch work: decoding a folder of scans and reconciling it with the packing manifest."""
import csv
import os

from . import png, scanline


def decode_file(path):
    try:
        _, _, rows = png.read_grey(path)
    except Exception:
        return {"status": "unreadable", "symbology": None, "text": None, "rotated": None}
    return scanline.read_label(rows)


def decode_dir(folder):
    return {name: decode_file(os.path.join(folder, name))
            for name in sorted(os.listdir(folder)) if name.endswith(".png")}


def _rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def reconcile(folder):
    scans = decode_dir(os.path.join(folder, "scans"))
    counts = {}
    for name, res in scans.items():
        if res["status"] == "ok":
            counts[res["text"]] = counts.get(res["text"], 0) + 1
    lines = []
    for r in _rows(os.path.join(folder, "manifest.csv")):
        n = counts.get(r["code"], 0)
        qty = int(r["qty"])
        lines.append({"line": int(r["line"]), "scanned": n, "status": "complete" if n >= qty else "short"})
    # TODO: unexpected codes
    return {
        "lines": lines,
        "unexpected": [],
        "unreadable": sorted(n for n, r in scans.items() if r["status"] != "ok"),
        "checksum_errors": [],
    }


def audit(folder):
    raise NotImplementedError("audit is not written yet")
