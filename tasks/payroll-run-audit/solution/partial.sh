#!/usr/bin/env bash
# Honest partial: the entry point's broken import, then the hours, proration, cap and tax repairs --
# weekly overtime without double counting, night hours across midnight, the night premium rounded on
# the period total, working-day proration, the cap against this year's contributions, progressive
# brackets. The new-year reset, retro tax and the shortfall carry forward are left as shipped, and
# there is no audit command.
set -euo pipefail
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/payroll/register.py", [("def run_period(folder, out_dir):", "def run(folder, out_dir):")])
patch("/app/payroll/hours.py", [
    ("    for a, b in ((0, NIGHT_END), (NIGHT_START, 1440)):\n        total += max(0, min(e, b) - max(s, a))\n",
     "    for base in range(0, e, 1440):\n        for a, b in ((base, base + NIGHT_END), (base + NIGHT_START, base + 1440)):\n            total += max(0, min(e, b) - max(s, a))\n"),
    ("        straight_week[period.week_of(day)] += worked\n", "        straight_week[period.week_of(day)] += worked - daily_ot\n"),
])
patch("/app/payroll/earnings.py", [
    ('sum((cents(h * premium) for h in hours["night_shifts"]), ZERO)', 'cents(hours["night"] * premium)'),
    ("        employed = (last - first).days + 1\n        total = (period.end - period.start).days + 1\n",
     "        employed = working_days(period, first, last)\n        total = working_days(period, period.start, period.end)\n"),
])
patch("/app/payroll/deductions.py", [
    ('    room = cap\n', '    room = max(ZERO, cap - ytd["pension"])\n'),
    ("        if annual > lo:\n            tax = annual * D(rate)\n",
     "        if annual > lo:\n            tax += ((annual if hi is None else min(annual, hi)) - lo) * D(rate)\n"),
])
PY
