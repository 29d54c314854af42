"""Lockfiles: JSON, one entry per locked package with the versions its dependencies resolved to."""
import json

LOCKFILE_VERSION = 1


def build(root, assigned, registry):
    packages = []
    for name in sorted(assigned):
        v = assigned[name]
        deps = registry.release(name, v).deps
        packages.append({"name": name, "version": str(v), "dependencies": {d: deps[d][0] for d in sorted(deps)}})
    return {"lockfile_version": LOCKFILE_VERSION, "root": root, "packages": packages}


def unsatisfiable(root):
    return {"lockfile_version": LOCKFILE_VERSION, "root": root, "error": "unsatisfiable", "packages": {}}


def write(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")


def read(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
