#!/usr/bin/env bash
# Lossy shortcut: Kahn's algorithm with a plain FIFO queue (the first ready targets sorted), so a target that becomes ready later never overtakes a larger name queued earlier.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/buildcore/graph.py"
s = open(p).read()
for old, new in [('            n = heapq.heappop(heap)\n', '            n = heap.pop(0)\n'), ('        heap = [n for n, d in indeg.items() if d == 0]\n        heapq.heapify(heap)\n', '        heap = sorted(n for n, d in indeg.items() if d == 0)\n'), ('                    heapq.heappush(heap, u)\n', '                    heap.append(u)\n')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
