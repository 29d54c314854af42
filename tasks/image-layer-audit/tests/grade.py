"""Grades the repaired /app/imgscan.py: `scan` on the public examples, on seeded hidden images whose
findings were planted by gen.py while it wrote the layers (ociw.py), and on the shipped images;
`audit` on another scanner's reports with planted errors."""
import csv
import json
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import gen  # noqa: E402
import ociw  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "imgscan.py")
# The grader's own copies of the examples and the shipped images: /app is the agent's to edit.
HERE = os.path.dirname(os.path.abspath(__file__))
COUNTS = {"layers": 3, "findings": 3, "packages": 3, "integrity": 3, "audit": 3}


def as_finding(r):
    layer = r.get("layer")
    return (str(r.get("kind")), str(r.get("path")), str(r.get("detail")), layer if isinstance(layer, int) else None)


def read_report(path):
    try:
        with open(path, encoding="utf-8") as f:
            rep = json.load(f)
        return {"verified": rep.get("verified") is True, "bad_blobs": sorted(rep.get("bad_blobs") or []),
                "findings": {as_finding(r) for r in rep.get("findings") or []}}
    except Exception:
        return None


def read_rows(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return {tuple((r.get(c) or "").strip() for c in ("reason", "kind", "path", "reported", "corrected"))
                    for r in csv.DictReader(f)}
    except Exception:
        return None


def same_report(want, got):
    if got is None:
        return False, "no report"
    if (want["verified"], sorted(want["bad_blobs"])) != (got["verified"], got["bad_blobs"]):
        return False, "verified %s bad %s, want %s %s" % (got["verified"], got["bad_blobs"], want["verified"], want["bad_blobs"])
    miss = want["findings"] - got["findings"]
    extra = got["findings"] - want["findings"]
    if miss or extra:
        return False, "missed %d (e.g. %s), extra %d (e.g. %s)" % (len(miss), sorted(miss, key=gen.key)[:1], len(extra), sorted(extra, key=gen.key)[:1])
    return True, "exact (%d findings)" % len(want["findings"])


def write_case(tag, files, feed):
    d = os.path.join(TMP, tag)
    ociw.write_tree(os.path.join(d, "image"), files)
    with open(os.path.join(d, "feed.json"), "wb") as f:
        f.write(gen.feed_bytes(feed))
    for name, data in sorted(files.items()):
        g.digest(name.encode() + data)
    g.digest(gen.feed_bytes(feed))
    return d


def prepare(family):
    """Every hidden image of a family with its answer, built before any submitted program runs."""
    try:
        rng = random.Random("%d@%s" % (SEED, family))
        out = []
        for i in range(COUNTS[family]):
            files, extra, want, decoys = generate(gen.hidden_case, rng, family, i)
            tag = "%s%d" % (family, i)
            d = write_case(tag, files, extra["feed"])
            item = {"tag": tag, "dir": d, "want": want}
            if family == "audit":
                report, rows = generate(gen.vendor_report, rng, want, decoys)
                item["report"] = os.path.join(d, "vendor.json")
                with open(item["report"], "w", encoding="utf-8") as f:
                    json.dump(report, f, indent=1)
                g.digest(json.dumps(report, sort_keys=True))
                item["rows"] = rows
            out.append(item)
        return out
    except Exception as e:  # reported by that family's check, the other checks still run
        return e


def scan_case(tag, d, want):
    out = os.path.join(TMP, tag + "-report.json")
    code, _, err = run(["python3", TOOL, "scan", os.path.join(d, "image"), os.path.join(d, "feed.json"), out], timeout=30)
    ok, why = same_report(want, read_report(out))
    return ok, "%s: %s%s" % (tag, why, (" exit %s %s" % (code, err.strip()[-120:])) if code else "")


def audit_case(tag, d, report, rows):
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOOL, "audit", os.path.join(d, "image"), os.path.join(d, "feed.json"), report, out], timeout=30)
    got = read_rows(out)
    if got is None:
        return False, "%s: no audit (exit %s %s)" % (tag, code, err.strip()[-120:])
    ok = got == rows
    return ok, "%s: %s" % (tag, "exact (%d rows)" % len(rows) if ok else "missing %s, extra %s" % (sorted(rows - got)[:2], sorted(got - rows)[:2]))


def hidden(family):
    def fn():
        cases = CASES[family]
        if isinstance(cases, Exception):
            raise cases
        if family == "audit":
            res = [audit_case(c["tag"], c["dir"], c["report"], c["rows"]) for c in cases]
        else:
            res = [scan_case(c["tag"], c["dir"], c["want"]) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def stored_want(path):
    with open(path, encoding="utf-8") as f:
        rep = json.load(f)
    return {"verified": rep["verified"], "bad_blobs": rep["bad_blobs"], "findings": {as_finding(r) for r in rep["findings"]}}


def stage(src, tag):
    dst = os.path.join(TMP, "given", tag)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def public():
    ok = []
    msgs = []
    for ex in ("example1", "example2"):
        d = stage(os.path.join(HERE, "examples", ex), ex)
        s, m1 = scan_case(ex, d, stored_want(os.path.join(d, "expected", "report.json")))
        a, m2 = audit_case(ex, d, os.path.join(d, "vendor-report.json"), read_rows(os.path.join(d, "expected", "audit.csv")))
        ok.append(s and a)
        msgs += [m1, m2]
    return float(all(ok)), "; ".join(msgs)


def shipped():
    """The three shipped images scanned (70%) and the other scanner's report on one audited (30%)."""
    root = stage(os.path.join(HERE, "shipped"), "shipped")
    res = []
    for name in ("web", "worker", "batch"):
        d = os.path.join(TMP, "ship-" + name)
        shutil.copytree(os.path.join(root, "images", name), os.path.join(d, "image"))
        shutil.copyfile(os.path.join(root, "feed", "vulns.json"), os.path.join(d, "feed.json"))
        res.append(scan_case(name, d, stored_want(os.path.join(root, "expected", name + ".json"))))
    d = os.path.join(TMP, "ship-worker")
    a, m = audit_case("worker audit", d, os.path.join(root, "vendor", "worker.json"), read_rows(os.path.join(root, "expected", "worker-audit.csv")))
    s = sum(r[0] for r in res) / len(res)
    return 0.7 * s + 0.3 * a, "; ".join([r[1] for r in res] + [m])


CASES = {k: prepare(k) for k in COUNTS}
g.check("public_examples", public)
g.check("hidden_layers", hidden("layers"))
g.check("hidden_findings", hidden("findings"))
g.check("hidden_packages", hidden("packages"))
g.check("hidden_integrity", hidden("integrity"))
g.check("hidden_audit", hidden("audit"))
g.check("shipped_images", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
