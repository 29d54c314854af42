#!/usr/bin/env bash
# Honest partial: the repairs but one -- rotated names, exclude patterns on the bundle path,
# duplicates by unwrapped content, whole stack traces, '-' byte counts, microsecond durations, epoch
# milliseconds, the access-log offset sign, upper-case hex ids, case-blind bot words, nearest-rank
# percentiles. The error rate is still rounded with float round(), and there is no audit command.
set -euo pipefail
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/digest/wrappers.py", [
    ('    if name.endswith(".log"):\n', '    name = name.rstrip("0123456789").rstrip(".") if name[-1:].isdigit() else name\n    if name.endswith(".log"):\n'),
])
patch("/app/digest/sources.py", [
    ("fnmatch.fnmatchcase(posixpath.basename(p), pat)", "fnmatch.fnmatchcase(p, pat)"),
    ("        h = hashlib.sha256(raw).hexdigest()\n", ""),
    ("        if kind is None:\n            continue\n", "        if kind is None:\n            continue\n        h = hashlib.sha256(data).hexdigest()\n"),
])
patch("/app/digest/parsers.py", [
    ('(\\d{3}) (\\d+) "', '(\\d{3}) (\\d+|-) "'),
    ('int(size), latency', '0 if size == "-" else int(size), latency'),
    ("            in_trace = False\n", "            in_trace = False\n            if line.strip():\n                continue\n"),
])
patch("/app/digest/timeutil.py", [
    ('    if sign == "+":\n        offset = -offset', '    if sign == "-":\n        offset = -offset'),
    ("        return EPOCH + timedelta(seconds=value)\n", "        if abs(value) > 1e11:\n            return EPOCH + timedelta(milliseconds=value)\n        return EPOCH + timedelta(seconds=value)\n"),
])
patch("/app/digest/fields.py", [('"us": Decimal(1)', '"us": Decimal("0.001")')])
patch("/app/digest/routes.py", [("[0-9a-f]{16,}", "[0-9A-Fa-f]{16,}"), ("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")])
patch("/app/digest/bots.py", [('ua = user_agent or ""', 'ua = (user_agent or "").lower()')])
patch("/app/digest/stats.py", [("    return s[min(p * n // 100, n - 1)]", "    return s[max(-(-p * n // 100), 1) - 1]")])
PY
