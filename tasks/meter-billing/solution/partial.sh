#!/usr/bin/env bash
# Honest partial: correct band/day splitting, but local times use one fixed UTC offset per meter
# (the offset at its first reading: no DST), no unit conversion and no rollover/reset handling.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/bill.py").read()
s = s.replace('    tz = ZoneInfo(meta["tz"])\n', '    tz = ZoneInfo(meta["tz"])\n    tz = FIXED.setdefault(meta["tz"], fixed(tz, body))\n')
s = s.replace('def read_meter(path):', '''FIXED = {}


def fixed(tz, body):
    first = next(l for l in body[1:] if l.strip()).split(",")[0].strip().replace(" ", "T")
    d = datetime.fromisoformat(first)
    d = d if d.tzinfo else d.replace(tzinfo=tz)
    return timezone(d.utcoffset())


def read_meter(path):''')
s = s.replace('    scale = UNITS[meta.get("unit", "kWh").lower()]', '    scale = 1.0')
s = s.replace('            dlt = dlt + roll if roll is not None else 0.0', '            dlt = 0.0')
open("/app/bill.py", "w").write(s)
PY
