#!/usr/bin/env bash
# Honest partial: the reader repaired except for Code 128 text -- every IDAT chunk, the per-row
# threshold, every row both ways, the EAN-13 parity table, the Code 128 check weights, both quiet
# zones -- and reconcile. Set C pairs are still printed without zero padding, a code-set switch
# still lasts one character, and audit is not written.
set -euo pipefail
mkdir -p /app/scankit
for f in /solution/scankit/*.py; do install -m 0644 "$f" /app/scankit/; done
install -m 0644 /solution/labelscan.py /app/labelscan.py
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)


patch("/app/scankit/code128.py", [
    ('                out.append("%02d" % v)\n', '                out.append(str(v))\n'),
    ('    for v in data:\n        if cset == "C":\n',
     '    base = cset\n    for v in data:\n        was, cset = cset, base\n        if was == "C":\n'),
])
patch("/app/labelscan.py", [
    ("        write(out, batch.audit(src))\n",
     '        print("audit: not written yet", file=sys.stderr)\n        return 1\n'),
])
PY
rm -rf /app/scankit/__pycache__
python3 /app/labelscan.py reconcile /app/batch /app/batch/reconcile.json || true
