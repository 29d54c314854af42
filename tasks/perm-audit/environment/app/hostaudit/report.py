"""Writing findings."""
import json


def write_findings(found, dest):
    with open(dest, "w") as f:
        json.dump([{"rule": r, "target": t} for r, t in sorted(found)], f, indent=1)
        f.write("\n")
