#!/usr/bin/env bash
# Edge case: a symbolic link to a directory is walked as a directory (os.path.isdir follows links) instead of stored as a link.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snapkit/scan.py"
s = open(p).read()
for old, new in [
    ('            if stat.S_ISLNK(st.st_mode):\n                out.append(entry(rel, "symlink", target=os.readlink(full)))\n            elif stat.S_ISDIR(st.st_mode):',
     '            if os.path.isdir(full):\n                st = os.stat(full)\n                out.append(entry(rel, "dir", mode=stat.S_IMODE(st.st_mode) & 0o777))\n                visit(rel)\n            elif stat.S_ISLNK(st.st_mode):\n                out.append(entry(rel, "symlink", target=os.readlink(full)))\n            elif stat.S_ISDIR(st.st_mode):'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
