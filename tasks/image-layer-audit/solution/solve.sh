#!/usr/bin/env bash
# Oracle: the repaired scanner (stored-bytes digests, the linux/amd64 manifest, layers bottom first,
# whiteouts and opaque markers before a layer's own entries, directory contents dropped on
# replacement, hard links as copies, symbolic links clamped at the image root, setgid and sticky
# rules, every private-key header, dpkg's tilde and last-hyphen revision) with the new audit
# command, then the release's reports and the worker audit.
set -euo pipefail
mkdir -p /app/layerscan
for f in /solution/layerscan/*.py; do install -m 0644 "$f" /app/layerscan/; done
install -m 0755 /solution/imgscan.py /app/imgscan.py
find /app -name __pycache__ -prune -exec rm -rf {} +
mkdir -p /app/reports
for n in web worker batch; do
  python3 /app/imgscan.py scan "/app/images/$n" /app/feed/vulns.json "/app/reports/$n.json"
done
python3 /app/imgscan.py audit /app/images/worker /app/feed/vulns.json /app/vendor/worker.json /app/reports/worker-audit.csv
