#!/usr/bin/env bash
# Off-by-one: persistence flags the fifth equal value in a row (four preceding) instead of the sixth.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/qc.py',
     '    if len(history) < PERSIST_PREVIOUS:\n        return False\n    key = round(value, 2)\n    return all(h == key for h in history[-PERSIST_PREVIOUS:])\n',
     '    window = history[-(PERSIST_PREVIOUS - 1):] + [round(value, 2)]\n    if len(window) < PERSIST_PREVIOUS:\n        return False\n    return all(h == window[-1] for h in window)\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
