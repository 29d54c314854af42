#!/usr/bin/env bash
# Honest partial: single-currency bookkeeping with canonical INV-YYYY-NNNN references only — no FX
# conversion, no alternative reference spellings, exact payer names.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/reconcile.py").read()
s = s.replace('REF = re.compile(r"inv(?:oice)?\\s*[#:.\\-/ ]*\\s*(\\d{4})\\s*[-/ ]\\s*0*(\\d{1,4})(?!\\d)", re.I)',
              'REF = re.compile(r"INV-(\\d{4})-(\\d{4})")')
s = s.replace("        return x if a == b else q(x * rate(a, d) / rate(b, d))", "        return x")
s = s.replace("    words = s.lower().replace(\",\", \" \").split()\n", "    return s\n")
open("/app/reconcile.py", "w").write(s)
PY
