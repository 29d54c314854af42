"""Batch work: decoding a folder of scans, reconciling with the manifest, auditing the inventory log
(SPEC sections 5 and 6)."""
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


def norm_code(symbology, code):
    code = code.strip()
    if symbology == "ean13":
        return code.replace(" ", "").replace("-", "")
    return code


def _rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def load_batch(folder):
    scans = decode_dir(os.path.join(folder, "scans"))
    manifest = []
    for r in _rows(os.path.join(folder, "manifest.csv")):
        sym = r["symbology"].strip().lower()
        manifest.append({"line": int(r["line"]), "key": (sym, norm_code(sym, r["code"])), "qty": int(r["qty"])})
    return scans, manifest


def reconcile(folder):
    scans, manifest = load_batch(folder)
    counts = {}
    for name, res in scans.items():
        if res["status"] == "ok":
            counts.setdefault((res["symbology"], res["text"]), []).append(name)
    lines = []
    known = set()
    for m in manifest:
        n = len(counts.get(m["key"], []))
        known.add(m["key"])
        status = "complete" if n == m["qty"] else "short" if n < m["qty"] else "over"
        lines.append({"line": m["line"], "scanned": n, "status": status})
    unexpected = [{"symbology": k[0], "code": k[1], "scans": sorted(v)}
                  for k, v in sorted(counts.items()) if k not in known]
    return {
        "lines": lines,
        "unexpected": unexpected,
        "unreadable": sorted(n for n, r in scans.items() if r["status"] == "unreadable"),
        "checksum_errors": sorted(n for n, r in scans.items() if r["status"] == "checksum_error"),
    }


def audit(folder):
    scans, manifest = load_batch(folder)
    known = {m["key"] for m in manifest}
    seen = set()
    out = []
    for r in _rows(os.path.join(folder, "inventory.csv")):
        entry = int(r["entry"])
        res = scans.get(r["scan"].strip())
        if res is None or res["status"] == "unreadable":
            reason = "unreadable"
        elif res["status"] == "checksum_error":
            reason = "checksum_error"
        else:
            sym = r["symbology"].strip().lower()
            key = (res["symbology"], res["text"])
            if (sym, norm_code(sym, r["code"])) != key:
                reason = "mismatch"
            elif key[0] == "code128" and key in seen:
                reason = "duplicate"
            elif key not in known:
                reason = "not_in_manifest"
            else:
                reason = "ok"
            if key[0] == "code128":
                seen.add(key)
        out.append({"entry": entry, "reason": reason})
    return out
