#!/usr/bin/env bash
# Misread rule: pairs the y labels with the ticks by sorting, largest value on the top tick, so an inverted y axis is read as a normal one.
set -euo pipefail
bash /solution/solve.sh
rm -f /app/paper/results.json /app/paper/audit.json
python3 - <<'PY'
p = "/app/figkit/axes.py"
s = open(p).read()
for old, new in [
    ('        pairs.append((y, parse_number(words[-1][1])))\n    return calibrate(pairs), s\n',
     '        pairs.append((y, parse_number(words[-1][1])))\n    pairs = list(zip(sorted(ticks), sorted((v for _, v in pairs), reverse=True)))\n    return calibrate(pairs), s\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 /app/digitize.py table /app/paper /app/paper/results.json || true
python3 /app/digitize.py audit /app/paper /app/paper/audit.json || true
