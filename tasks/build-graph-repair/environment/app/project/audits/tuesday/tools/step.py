#!/usr/bin/env python3
"""Sales pipeline steps: clean, sum, report, summary. Each run is logged to build/runs.log."""
import json
import os
import sys


def log(target):
    os.makedirs("build", exist_ok=True)
    with open("build/runs.log", "a") as f:
        f.write(target + "\n")


def main(argv):
    step = argv[0]
    if step == "clean":
        src, dst = argv[1], argv[2]
        rows = []
        for line in open(src):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            item, amount = [c.strip() for c in line.split(",")]
            rows.append("%s,%s" % (item.lower(), amount))
        with open(dst, "w") as f:
            f.write("\n".join(rows) + "\n")
        log(dst)
    elif step == "sum":
        src, dst, nd = argv[1], argv[2], int(argv[3])
        total = 0
        for line in open(src).read().split("\n")[1:]:
            if line:
                total += int(line.split(",")[1])
        region = os.path.basename(dst)[:-4]
        with open(dst, "w") as f:
            f.write("%s %.*f\n" % (region, nd, total / 100))
        log(dst)
    elif step == "report":
        dst, parts = argv[1], argv[2:]
        lines = sorted(open(p).read().strip() for p in parts)
        total = sum(float(x.split()[1]) for x in lines)
        with open(dst, "w") as f:
            f.write("\n".join(lines) + "\ntotal %.2f\n" % total)
        log(dst)
    elif step == "summary":
        src, dst = argv[1], argv[2]
        lines = open(src).read().strip().split("\n")
        doc = {"regions": len(lines) - 1, "total": lines[-1].split()[1]}
        with open(dst, "w") as f:
            f.write(json.dumps(doc, sort_keys=True) + "\n")
        log(dst)
    else:
        sys.exit("unknown step " + step)


if __name__ == "__main__":
    main(sys.argv[1:])
