#!/usr/bin/env bash
# Honest partial: octal modes and single-file configs only — no symbolic modes, no gzip, sshd read
# as a flat file (last value wins, Include/Match ignored), sudoers without aliases or includedir.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/audit.py").read()
s = s.replace('    t, s = m[0], m[1:]\n', '    return "?", 0\n    t, s = m[0], m[1:]\n')
s = s.replace('    if data[:2] == b"\\x1f\\x8b":\n        data = gzip.decompress(data)\n', '')
s = s.replace('            if key == "match":\n                in_match = True\n                continue\n', '')
s = s.replace('            if key == "include":\n', '            if key == "include" and False:\n')
s = s.replace('            if not in_match and key not in eff:\n', '            if True:\n')
s = s.replace('            if s.startswith("#includedir") or s.startswith("@includedir"):\n', '            if False:\n')
s = s.replace('    for fn in (fs_findings, sshd, sudo, accounts):\n        fn(root, out)\n',
              '    for fn in (fs_findings, sshd, sudo, accounts):\n        try:\n            fn(root, out)\n        except Exception:\n            pass\n')
s = s.replace('        m = re.match(r"^(User_Alias|Cmnd_Alias|Host_Alias|Runas_Alias)\\s+(.*)$", l)\n', '        m = None\n')
open("/app/audit.py", "w").write(s)
PY
