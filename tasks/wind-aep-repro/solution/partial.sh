#!/usr/bin/env bash
# Honest partial: the repairs the public examples and the readers point at -- kelvin in the hub-height
# correction, the wind speed (not the power) normalised, bins centred on multiples of 0.5, curtailment
# out of the curve, BORA labels read as period ends, MW exports, the AEP tail held only to cut-out,
# the Weibull scale through the gamma function, maintenance excluded from availability. The fall-back
# hour, frozen-anemometer runs and lone-bin gaps are left as shipped, and there is no audit command.
set -euo pipefail
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/windkit/density.py", [
    ("/ (R_DRY * temp_c))\n", "/ (R_DRY * t))\n"),
    ('        r["wsn"] = r["ws"]\n        r["power"] = r["power"] * (RHO0 / rho) ** (1.0 / 3.0)\n',
     '        r["wsn"] = r["ws"] * (rho / RHO0) ** (1.0 / 3.0)\n'),
])
patch("/app/windkit/binning.py", [("    return int(math.floor(v / WIDTH))\n", "    return int(math.floor(v / WIDTH + 0.5))\n")])
patch("/app/windkit/filters.py", [
    ('    if 0 <= code < 200:\n        return "run"\n',
     '    if 0 <= code < 100:\n        return "run"\n    if 100 <= code < 200:\n        return "curtailed"\n'),
])
patch("/app/windkit/timebase.py", [
    ("            if offset_at(end, self.std, self.dst) == off:\n                fits.append(end)\n",
     "            if offset_at(end - STEP, self.std, self.dst) == off:\n                fits.append(end - STEP)\n"),
])
patch("/app/windkit/scada.py", [('                if body.startswith("unit="):\n', '                if body.startswith("unit_power="):\n')])
patch("/app/windkit/aep.py", [
    ("    total += (1.0 - F(prev_v)) * prev_p\n", "    total += (F(cut_out) - F(prev_v)) * prev_p\n"),
    ("        scale = mean\n", "        scale = mean / math.gamma(1.0 + 1.0 / k)\n"),
])
patch("/app/windkit/availability.py", [('unavailable=("fault", "maintenance")', 'unavailable=("fault",)')])
PY
