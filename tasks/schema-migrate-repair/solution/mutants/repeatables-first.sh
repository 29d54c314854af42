#!/usr/bin/env bash
# Misread rule: runs changed repeatable migrations before the pending versioned ones.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/migrator/engine.py"
s = open(p).read()
versioned = '''    for k in pending:
        s = versioned[k]
        run_in_transaction(conn, s, lambda c, s=s: history.insert(c, s.version_text, s.description, "SQL", s.name, s.checksum))
        say("applied %s %s" % (s.version_text, s.name))
'''
rest = '''    latest = {}
    for r in history.rows(conn):
        if r.type == "REPEATABLE" and r.success:
            latest[r.description] = r.checksum
    for desc in sorted(repeatable):
        s = repeatable[desc]
        if latest.get(desc) == s.checksum:
            continue
        run_in_transaction(conn, s, lambda c, s=s: history.insert(c, None, s.description, "REPEATABLE", s.name, s.checksum))
        say("applied repeatable %s" % s.name)
'''
old = versioned + rest
# A patch that no longer applies would leave the reference program: fail loudly instead.
assert s.count(old) == 1, "mutant patch does not apply"
s = s.replace(old, rest + versioned)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
