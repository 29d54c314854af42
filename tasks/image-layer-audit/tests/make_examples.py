"""Renders the public examples (environment/examples, tests/examples) and the shipped images
(environment/app/{images,feed,vendor}, tests/shipped) from gen.py with fixed seeds; the expected
reports and audits are the findings gen.py planted. Never run at grading time."""
import csv
import io
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import ociw  # noqa: E402

TASK = os.path.dirname(HERE)
EASY_PAIRS = [pr for pr in gen.PAIRS if pr not in (("1.2-3-4", "1.2-10"), ("1.0-1-1", "1.0-1-1~bpo1"))]


def report_json(name, want):
    rows = [{"kind": k, "path": p, "detail": d, "layer": l} for k, p, d, l in sorted(want["findings"], key=gen.key)]
    rep = {"image": name, "verified": want["verified"], "bad_blobs": sorted(want["bad_blobs"]), "findings": rows}
    return (json.dumps(rep, indent=2, sort_keys=True) + "\n").encode()


def audit_csv(rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["reason", "kind", "path", "reported", "corrected"])
    w.writerows(sorted(rows, key=lambda r: (r[1], r[2], r[0], r[3], r[4])))
    return buf.getvalue().encode()


def vendor_json(report):
    return (json.dumps(report, indent=2) + "\n").encode()


def put(root, rel, data):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)


def example(seed, motifs, nlayers, packages):
    rng = random.Random(seed)
    files, extra, want, decoys = gen.build_image(rng, motifs, nlayers, packages=packages)
    report, rows = gen.vendor_report(rng, want, decoys)
    return files, extra["feed"], want, report, rows


def main():
    for where in ("environment/examples", "tests/examples", "environment/app/images", "environment/app/feed",
                  "environment/app/vendor", "tests/shipped"):
        shutil.rmtree(os.path.join(TASK, where), ignore_errors=True)
    exs = {
        "example1": example("example-1", [gen.m_modes, gen.m_world_writable, gen.m_secrets, gen.m_hardlink_modes], 3,
                            {"pairs": EASY_PAIRS, "styles": ["direct"], "n": 6, "required": [("2.0~beta2", "2.0")]}),
        "example2": example("example-2", [gen.m_chmod_later, gen.m_overwrite_secret, gen.m_whiteout_lower, gen.m_modes], 3,
                            {"pairs": EASY_PAIRS, "styles": ["abs"], "n": 6}),
    }
    for name, (files, feed, want, report, rows) in exs.items():
        for root in ("environment/examples", "tests/examples"):
            base = os.path.join(TASK, root, name)
            ociw.write_tree(os.path.join(base, "image"), files)
            put(base, "feed.json", gen.feed_bytes(feed))
            put(base, "vendor-report.json", vendor_json(report))
            put(base, "expected/report.json", report_json("image", want))
            put(base, "expected/audit.csv", audit_csv(rows))
    # the shipped images share one feed: each image's VULN findings are taken over all of it
    rng = random.Random("shipped-images")
    feed = []
    plans = {
        "web": (gen.LAYER_MOTIFS[:4] + [gen.m_modes, gen.m_world_writable], 4, {"style": "climb", "n": 8}, None),
        "worker": (gen.LAYER_MOTIFS[4:] + [gen.m_secrets, gen.m_same_content], 4,
                   {"style": "dirlink", "n": 8, "required": gen.REQUIRED}, None),
        "batch": ([gen.m_hardlink, gen.m_opaque, gen.m_hardlink_modes, gen.m_secrets], 3, {"style": "direct", "n": 8},
                  {"multi": True, "corrupt_other": True}),
    }
    built = {}
    for name, (motifs, n, pk, integ) in plans.items():
        built[name] = gen.build_image(rng, motifs, n, packages=pk, integrity=integ, feed=feed)
    for name, (files, extra, want, decoys) in built.items():
        want["findings"] = {f for f in want["findings"] if f[0] != "VULN"} | gen.vulns_over(extra["installed"], feed)
        decoys = decoys - want["findings"]
        for root in ("environment/app/images", "tests/shipped/images"):
            ociw.write_tree(os.path.join(TASK, root, name), files)
        put(os.path.join(TASK, "tests/shipped/expected"), name + ".json", report_json(name, want))
        if name == "worker":
            report, rows = gen.vendor_report(rng, want, decoys)
            for root in ("environment/app/vendor", "tests/shipped/vendor"):
                put(os.path.join(TASK, root), "worker.json", vendor_json(report))
            put(os.path.join(TASK, "tests/shipped/expected"), "worker-audit.csv", audit_csv(rows))
    for root in ("environment/app/feed", "tests/shipped/feed"):
        put(os.path.join(TASK, root), "vulns.json", gen.feed_bytes({"entries": feed}))


if __name__ == "__main__":
    main()
