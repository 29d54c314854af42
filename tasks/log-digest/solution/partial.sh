#!/usr/bin/env bash
# Honest partial: plain .log/.jsonl with canonical field names only; no wrappers, no manifests,
# no renamed fields or duration strings.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/logdigest.py").read()
s = s.replace('def unwrap(data, name):\n', 'def unwrap(data, name):\n    return data, name\n')
s = s.replace('if os.path.exists(man):', 'if False:')
s = s.replace('"ts": ["ts", "time", "timestamp", "@timestamp"]', '"ts": ["ts"]')
s = s.replace('"path": ["path", "url", "uri", "request_path"]', '"path": ["path"]')
s = s.replace('"bytes": ["bytes", "size", "resp_bytes", "body_bytes"]', '"bytes": ["bytes"]')
s = s.replace('LAT_MS = ["latency_ms", "duration_ms", "elapsed_ms"]', 'LAT_MS = ["latency_ms"]')
s = s.replace('LAT_STR = ["duration", "latency", "elapsed"]', 'LAT_STR = []')
open("/app/logdigest.py", "w").write(s)
PY
