"""Matching installed packages against a vulnerability feed."""
import json

from . import debver


def load_feed(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f).get("entries", [])


def vuln_findings(pkgs, feed):
    out = set()
    for entry in feed:
        name = entry.get("package")
        if name not in pkgs:
            continue
        fixed = entry.get("fixed")
        if fixed is None or debver.compare(pkgs[name], fixed) < 0:
            out.add(("VULN", name, entry["cve"], None))
    return sorted(out)
