#!/usr/bin/env bash
# Honest partial: the folder side repaired (numeric version order, normalised versions, checksums
# and execution over normalised text), repeatables moved after the versioned migrations and
# compared with their latest row, the audit command written; the legacy database upgraded.
# Transactions and failures, --target, down, baseline and migrate's validation are left as shipped.
set -euo pipefail
install -m 0644 /solution/migrator/scripts.py /app/migrator/scripts.py
install -m 0644 /solution/migrator/audit.py /app/migrator/audit.py
install -m 0755 /solution/migrate.py /app/migrate.py
install -m 0755 /solution/upgrade_legacy.py /app/upgrade_legacy.py
python3 - <<'PY'
p = "/app/migrator/engine.py"
s = open(p).read()
start = s.index("    latest = {}\n")
end = s.index("def down(")
block = s[start:end]
rep = block.split("    for s in sorted(pending, key=lambda s: s.name):\n")
assert len(rep) == 2, "partial patch does not apply"
rest, versioned = rep
versioned = "    for s in sorted(pending, key=lambda s: s.version):\n" + versioned.rstrip("\n") + "\n"
rest = rest.replace("latest.setdefault(r.description, r.checksum)", "latest[r.description] = r.checksum")
s = s[:start] + versioned + rest + "\n\n" + s[end:]
old = "        conn.executescript(script.text)\n"
assert s.count(old) == 1, "partial patch does not apply"
s = s.replace(old, "        conn.executescript(normalise(script.text))\n")
s = s.replace("from .scripts import parse_version,", "from .scripts import normalise, parse_version,")
assert "import normalise" in s, "partial patch does not apply"
open(p, "w").write(s)
PY
bash /solution/run-project.sh
