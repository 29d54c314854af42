"""Audit of an existing lockfile against the registry and its manifest."""
from .resolver import Unsatisfiable, resolve
from .version import Version, VersionError


def audit(registry, root_deps, lock):
    """Returns [(package, version_text, reason)] sorted by package."""
    entries = lock.get("packages") or {}
    locked = {}  # name -> Version for entries whose version parses and exists
    rows = {}
    for name, e in sorted(entries.items()):
        text = str(e.get("version", ""))
        if not registry.has(name):
            rows[name] = (text, "unknown_package")
            continue
        try:
            v = Version.parse(text)
        except VersionError:
            v = None
        if v is None or registry.release(name, v) is None:
            rows[name] = (text, "unknown_version")
            continue
        locked[name] = v

    # Reachability from the root through the registry dependencies of the locked versions.
    reach, stack = set(), list(root_deps)
    while stack:
        n = stack.pop()
        if n in reach:
            continue
        reach.add(n)
        if n in locked:
            stack.extend(registry.release(n, locked[n]).deps)

    ranges = {}
    for n, rng in root_deps.items():
        ranges.setdefault(n, []).append(rng)
    for n in reach:
        if n in locked:
            for d, (_, rng) in registry.release(n, locked[n]).deps.items():
                ranges.setdefault(d, []).append(rng)

    for name, v in sorted(locked.items()):
        text = str(entries[name].get("version"))
        if registry.release(name, v).yanked:
            rows[name] = (text, "yanked")
        elif not all(r.matches(v) for r in ranges.get(name, [])):
            rows[name] = (text, "unsatisfied")
        elif name not in reach:
            rows[name] = (text, "extraneous")
        else:
            deps = registry.release(name, v).deps
            recorded = entries[name].get("dependencies") or {}
            if set(recorded) != set(deps) or any(
                    d in entries and str(recorded[d]) != str(entries[d].get("version")) for d in deps):
                rows[name] = (text, "deps_mismatch")
    for name in sorted(reach):
        if name not in entries:
            rows[name] = ("", "missing")

    if not rows:
        try:
            fresh = resolve(registry, root_deps)
        except Unsatisfiable:
            fresh = None
        if fresh is not None:
            for name in sorted(set(fresh) | set(locked)):
                want = fresh.get(name)
                if want != locked.get(name):
                    rows[name] = (str(locked[name]) if name in locked else "", "outdated")
    return [(n,) + rows[n] for n in sorted(rows)]
