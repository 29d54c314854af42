"""Checking another scanner's report against our own scan (docs/SPEC.md section 8)."""
import csv
import json

from .scan import from_rows, scan_image

HEADER = ["reason", "kind", "path", "reported", "corrected"]


def value(f):
    return f[2] if f[3] is None else "%s@%d" % (f[2], f[3])


def compare(truth, reported):
    groups = {}
    for f in truth:
        groups.setdefault((f[0], f[1]), [set(), set()])[0].add(f)
    for f in reported:
        groups.setdefault((f[0], f[1]), [set(), set()])[1].add(f)
    rows = []
    for (kind, path), (want, got) in groups.items():
        if want == got:
            continue
        if len(want) == 1 and len(got) == 1:
            rows.append(["WRONG_DETAIL", kind, path, value(next(iter(got))), value(next(iter(want)))])
            continue
        for f in want - got:
            rows.append(["MISSED", kind, path, "", value(f)])
        for f in got - want:
            rows.append(["SPURIOUS", kind, path, value(f), ""])
    return sorted(rows, key=lambda r: (r[1], r[2], r[0], r[3], r[4]))


def run_audit(image_dir, feed, report_path, out_csv):
    with open(report_path, encoding="utf-8") as f:
        rep = json.load(f)
    truth = scan_image(image_dir, feed)
    rows = compare(from_rows(truth["findings"]), from_rows(rep.get("findings", [])))
    if bool(rep.get("verified")) != truth["verified"]:
        rows.insert(0, ["VERIFY", "IMAGE", "", str(bool(rep.get("verified"))).lower(), str(truth["verified"]).lower()])
    with open(out_csv, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        w.writerows(rows)
    return rows
