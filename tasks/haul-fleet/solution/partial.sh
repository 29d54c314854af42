#!/usr/bin/env bash
# Honest partial: the client is repaired, but the bot knows only the static rules: it plans with
# the starting prices, takes no notice of closure windows and sends every truck after the same
# best trip (no ore promised between trucks).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bot.py"
s = open(p).read()
for old, new in [
    ('            if k == kind and when <= t:\n', '            if False:\n'),
    ('            if m == mid and a <= t <= b:\n', '            if False:\n'),
    ('            if a <= t <= b:\n', '            if False:\n'),
    ('        return sum(p["reserve"]', '        return 0 * sum(p["reserve"]'),
]:
    assert s.count(old) == 1, "partial patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
