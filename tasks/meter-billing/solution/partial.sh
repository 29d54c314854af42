#!/usr/bin/env bash
# Honest partial: the register-read repairs (rollover, exchange pair, estimates ignored, gap spread
# with the remainder first), zoneinfo local time, the night band across midnight, holidays, the
# standing-charge day count, half-even cents and VAT before the export credit. Tariff versions still
# start a day late, block thresholds are not pro-rated, and there is no audit command.
set -euo pipefail
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

M = "/app/meterbill/"
patch(M + "money.py", [("rounding=ROUND_HALF_UP)", "rounding=ROUND_HALF_EVEN)"),
                       ("import Decimal, ROUND_HALF_UP", "import Decimal, ROUND_HALF_EVEN")])
patch(M + "period.py", [("        n = (self.end - self.start).days\n", "        n = (self.end - self.start).days + 1\n"),
                        ("        return (instant + self._offset).replace(tzinfo=None)", "        return instant.astimezone(self.zone)")])
patch(M + "reads.py", [
    ("    latest = {}\n    for ts, wh, flag in register.rows:\n        latest[ts] = wh\n    return [(ts, wh, wh) for ts, wh in sorted(latest.items())]",
     "    out = []\n    for ts, wh, flag in register.rows:\n        if flag == 'E':\n            continue\n"
     "        if flag == 'X' and out and out[-1][0] == ts:\n            out[-1] = (ts, out[-1][1], wh)\n            continue\n"
     "        out.append((ts, wh, wh))\n    return out"),
    ("        delta = b\n", "        delta += register.modulus\n"),
    ("        each = round(consumption(register, out0, in1) / k)\n        for i in range(k):\n            usage[t0 + timedelta(seconds=SLOT_SECONDS * i)] = each",
     "        each, extra = divmod(consumption(register, out0, in1), k)\n        for i in range(k):\n            usage[t0 + timedelta(seconds=SLOT_SECONDS * i)] = each + (i < extra)"),
])
patch(M + "tariff.py", [("day.isoformat() in holidays", "day in holidays"),
                        ("        if lo <= t < hi:\n", "        if (lo <= t < hi) if lo < hi else (t >= lo or t < hi):\n")])
patch(M + "billing.py", [("    vat = cents((net + credit) * period.vat_rate)\n", ""),
                         ("    net = energy + standing\n", "    net = energy + standing\n    vat = cents(net * period.vat_rate)\n")])
PY
