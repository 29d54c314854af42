#!/usr/bin/env bash
# Honest partial: the entry point's broken import, then the reader and QC repairs -- kelvin offset,
# negative half-hour offsets, the -999.9 token, TOA5 station clocks, first-read duplicates, the spike
# reference, the persistence window and the two-sided climatology test. The daily completeness,
# min/max and monthly-mean rules are left as shipped, and there is no audit command.
set -euo pipefail
python3 - <<'PY'
for p, old, new in [
    ('stationqc.py',
     'from qckit import daily, network, output, summary  # noqa: E402\n',
     'from qckit import daily, network, output  # noqa: E402\n'),
    ('stationqc.py',
     'summary.rows(flags)',
     'flags'),
    ('qckit/units.py',
     '        return value - 273.0\n',
     '        return value - 273.15\n'),
    ('qckit/timeutil.py',
     '    return sign * int(m.group(2)) * 60 + int(m.group(3))\n',
     '    return sign * (int(m.group(2)) * 60 + int(m.group(3)))\n'),
    ('qckit/tokens.py',
     'MISSING_TOKENS = {"", "na", "n/a", "nan", "null", "m", "-9999"}\n',
     'MISSING_TOKENS = {"", "na", "n/a", "nan", "null", "m", "-9999", "-999.9"}\n'),
    ('qckit/toa5.py',
     '    offset = offsets.get(station.lower(), 0)\n',
     '    offset = offsets.get(station, 0)\n'),
    ('qckit/network.py',
     '            seen.setdefault(station, {})[t] = v\n',
     '            per = seen.setdefault(station, {})\n            if t not in per:\n                per[t] = v\n'),
    ('qckit/qc.py',
     '        reference = (t, value)\n',
     '        if flag == VALID:\n            reference = (t, value)\n'),
    ('qckit/qc.py',
     '    window = history[-(PERSIST_PREVIOUS - 1):] + [round(value, 2)]\n    if len(window) < PERSIST_PREVIOUS:\n        return False\n    return all(h == window[-1] for h in window)\n',
     '    if len(history) < PERSIST_PREVIOUS:\n        return False\n    key = round(value, 2)\n    return all(h == key for h in history[-PERSIST_PREVIOUS:])\n'),
    ('qckit/qc.py',
     '    return value - mean > CLIM_SD_LIMIT * sd\n',
     '    return abs(value - mean) > CLIM_SD_LIMIT * sd\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    assert s.count(old) == 1, "partial patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
