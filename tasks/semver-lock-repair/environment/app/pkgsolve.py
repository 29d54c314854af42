#!/usr/bin/env python3
"""pkgsolve command line.

    python3 pkgsolve.py lock  PROJECT_DIR OUT_DIR   # OUT_DIR/<name>.lock.json for every manifests/<name>.json
    python3 pkgsolve.py audit PROJECT_DIR OUT_DIR   # OUT_DIR/<name>.csv for every locks/<name>.lock.json

A project folder holds registry/ (the index), manifests/ and locks/ (existing lockfiles).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pkgsolve import lockfile, registry as registry_mod  # noqa: E402
from pkgsolve.ranges import Range  # noqa: E402
from pkgsolve.resolver import resolve  # noqa: E402


def read_manifest(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    return doc["name"], {n: Range(t) for n, t in (doc.get("dependencies") or {}).items()}


def stems(folder, suffix):
    if not os.path.isdir(folder):
        return []
    return sorted(fn[: -len(suffix)] for fn in os.listdir(folder) if fn.endswith(suffix))


def cmd_lock(project, out_dir):
    reg = registry_mod.load(os.path.join(project, "registry"))
    os.makedirs(out_dir, exist_ok=True)
    for stem in stems(os.path.join(project, "manifests"), ".json"):
        root, deps = read_manifest(os.path.join(project, "manifests", stem + ".json"))
        doc = lockfile.build(root, resolve(reg, deps), reg)
        lockfile.write(os.path.join(out_dir, stem + ".lock.json"), doc)
    return 0


def cmd_audit(project, out_dir):
    # TODO(audit): see docs/SPEC.md section 7. Not written yet.
    print("audit: not implemented", file=sys.stderr)
    return 3


def main(argv):
    if len(argv) == 3 and argv[0] == "lock":
        return cmd_lock(*argv[1:])
    if len(argv) == 3 and argv[0] == "audit":
        return cmd_audit(*argv[1:])
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
