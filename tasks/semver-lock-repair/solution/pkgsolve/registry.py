"""The registry index: one JSON-lines file per package, an append-only log of publishes and yanks."""
import json
import os

from .ranges import Range
from .version import Version


class RegistryError(ValueError):
    pass


class Release:
    __slots__ = ("version", "deps", "yanked")

    def __init__(self, version, deps, yanked):
        self.version, self.deps, self.yanked = version, deps, yanked


class Registry:
    def __init__(self, packages):
        self.packages = packages  # name -> {Version: Release}

    def names(self):
        return sorted(self.packages)

    def has(self, name):
        return name in self.packages

    def releases(self, name):
        return self.packages.get(name, {})

    def release(self, name, version):
        return self.packages.get(name, {}).get(version)

    def available(self, name):
        """Versions that may be selected, newest first."""
        return sorted((v for v, r in self.releases(name).items() if not r.yanked), reverse=True)


def load(folder):
    packages = {}
    for fn in sorted(os.listdir(folder)):
        if not fn.endswith(".jsonl"):
            continue
        name = fn[: -len(".jsonl")]
        rel = packages.setdefault(name, {})
        with open(os.path.join(folder, fn), encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = json.loads(line)
                    v = Version.parse(rec["vers"])
                except (ValueError, KeyError) as e:
                    raise RegistryError("%s:%d: %s" % (fn, lineno, e))
                if "deps" in rec:
                    if v in rel:
                        continue  # a version is published once; later publishes are ignored
                    deps = {d: (text, Range(text)) for d, text in rec["deps"].items()}
                    rel[v] = Release(v, deps, bool(rec.get("yanked", False)))
                elif v in rel:
                    rel[v].yanked = bool(rec.get("yanked", False))
    return Registry(packages)
