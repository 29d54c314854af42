#!/usr/bin/env bash
# Misread rule: takes a precedence as non-strict, so two exams of an after/before pair in the same slot pass.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ttlib/rules.py"
s = open(p).read()
for old, new in [
    ('            if inst.slot_index(*where[later]) <= inst.slot_index(*where[earlier]):\n',
     '            if inst.slot_index(*where[later]) < inst.slot_index(*where[earlier]):\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
