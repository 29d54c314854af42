"""Backtracking resolution: one version per package name."""


class Unsatisfiable(Exception):
    pass


def resolve(registry, root_deps):
    """root_deps: {name: Range}. Returns {name: Version}; raises Unsatisfiable.

    Packages are decided one at a time: always the alphabetically first package that is required
    (by the root or by a decided package) and not decided yet; its candidates are tried newest
    first; on a dead end the search goes back to the latest decision with untried candidates."""
    assigned = {}
    required = {}  # name -> [Range, ...]
    for name, rng in root_deps.items():
        required.setdefault(name, []).append(rng)

    def search():
        pending = sorted(n for n in required if n not in assigned)
        if not pending:
            return True
        name = pending[0]
        for v in registry.available(name):
            if not all(r.matches(v) for r in required[name]):
                continue
            deps = registry.release(name, v).deps
            assigned[name] = v
            for d, (_, rng) in deps.items():
                required.setdefault(d, []).append(rng)
            return search()
        return False

    if not search():
        raise Unsatisfiable("no set of versions satisfies every range")
    return dict(assigned)
