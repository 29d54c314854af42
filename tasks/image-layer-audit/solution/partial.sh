#!/usr/bin/env bash
# Honest partial: the blob and layer repairs -- digests over the stored bytes, the linux/amd64
# manifest, layers bottom first, whiteouts and opaque markers before the layer's own entries,
# directory contents dropped on replacement, hard links as copies -- plus the setgid and sticky-bit
# rules, every private-key header and the tilde in Debian versions. Symbolic links above the root and
# the revision split are left as shipped, and there is no audit command.
set -euo pipefail
python3 - <<'PY'
import shutil
for m in ("blobs.py", "rootfs.py"):
    shutil.copyfile("/solution/layerscan/" + m, "/app/layerscan/" + m)

def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

# the shipped rootfs refuses '..' above the root: keep that part as it was
patch("/app/layerscan/rootfs.py", [
    ("            if part == \"..\":\n                if cur:\n                    cur.pop()\n                continue\n",
     "            if part == \"..\":\n                if not cur:\n                    return None\n                cur.pop()\n                continue\n"),
])
patch("/app/layerscan/perms.py", [
    ("        if node.kind in (\"file\", \"hardlink\"):\n            if node.mode & 0o6000 and node.mode & EXEC_BITS:\n                out.append((\"SETUID\", path, octal(node.mode), None))\n",
     "        if node.kind == \"file\":\n            if node.mode & 0o4000 and node.mode & EXEC_BITS:\n                out.append((\"SETUID\", path, octal(node.mode), None))\n"
     "            if node.mode & 0o2000 and node.mode & EXEC_BITS:\n                out.append((\"SETGID\", path, octal(node.mode), None))\n"),
    ("        elif node.kind == \"dir\":\n            if node.mode & 0o002:\n", "        elif node.kind == \"dir\":\n            if node.mode & 0o002 and not node.mode & 0o1000:\n"),
])
patch("/app/layerscan/secrets.py", [
    ('rb"-----BEGIN (?:RSA |DSA )?PRIVATE KEY-----"', 'rb"-----BEGIN (?:(?:RSA|DSA|EC|OPENSSH|ENCRYPTED) )?PRIVATE KEY-----"'),
    ("        data = fs.content(node) if node.kind in (\"file\", \"hardlink\") else None\n",
     "        data = node.data if node.kind == \"file\" else None\n"),
])
patch("/app/layerscan/debver.py", [
    ("def _order(c):\n    if c.isalpha():", "def _order(c):\n    if c == \"~\":\n        return -1\n    if c.isalpha():"),
])
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
