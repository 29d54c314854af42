#!/usr/bin/env bash
# Honest partial: what the legacy writer and example1 teach -- format 1 decoding and a
# byte-exact encoder -- but no format 2 (DAT2 blocks are skipped, the string table is read as
# format 1), no check values and no truncated files (a file cut short stops the decoder).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/kla.py").read()
for old, new in [
    ("zlib.crc32(tag + body) == crc))", "True))"),
    ("        except Truncated:\n            return chunks, True\n",
     "        except Truncated:\n            raise SystemExit('unexpected end of archive')\n"),
    ('        elif tag in ("DATA", "DAT2"):\n', '        elif tag == "DATA":\n'),
    ("        if version >= 2:\n            keep = r.uvar()", "        if False:\n            keep = r.uvar()"),
]:
    assert s.count(old) == 1, "partial patch does not apply: %r" % old
    s = s.replace(old, new)
open("/app/kla.py", "w").write(s)
PY
