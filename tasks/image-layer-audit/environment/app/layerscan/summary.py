"""`imgscan.py summary REPORT_JSON`: a short human summary of a scan report."""
import json

KINDS = ["SETUID", "SETGID", "WORLD_WRITABLE", "SECRET", "LEAKED_SECRET", "VULN"]


def summarise(report):
    if not report.get("verified"):
        lines = ["image %s: NOT VERIFIED" % report.get("image", "?")]
        lines += ["  bad blob %s" % d for d in report.get("bad_blobs", [])]
        return "\n".join(lines)
    counts = {k: 0 for k in KINDS}
    for f in report.get("findings", []):
        counts[f["kind"]] = counts.get(f["kind"], 0) + 1
    lines = ["image %s: %d findings" % (report.get("image", "?"), sum(counts.values()))]
    for k in KINDS:
        if counts.get(k):
            lines.append("  %-15s %d" % (k, counts[k]))
    leaked = sorted({f["layer"] for f in report.get("findings", []) if f["kind"] == "LEAKED_SECRET"})
    if leaked:
        lines.append("  secrets leaked in layer(s) %s" % ", ".join(str(i) for i in leaked))
    return "\n".join(lines)


def summarise_file(path):
    with open(path, encoding="utf-8") as f:
        return summarise(json.load(f))
