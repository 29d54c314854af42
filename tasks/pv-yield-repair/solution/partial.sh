#!/usr/bin/env bash
# Honest partial: the repairs the per-interval table points at first -- UTC conversion and solar
# time, the incidence angle in radians, the temperature coefficient's sign, clipping at the AC
# limit, period-end labels. Missing values still read as zero, the gap rule, the monthly table's
# UTC months and per-kWac yield are left as shipped, and there is no audit command.
set -euo pipefail
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/pvyield/solar.py", [("    tst = hour * 60.0  # minutes past midnight on the plant's clock\n",
                                 "    tst = hour * 60.0 + 4.0 * longitude + equation_of_time(g)\n")])
patch("/app/pvyield/model.py", [("    mid = start + timedelta(minutes=step_min / 2.0)\n",
                                 "    mid = start + timedelta(minutes=step_min / 2.0) - timedelta(hours=plant.utc_offset_hours)\n")])
patch("/app/pvyield/irradiance.py", [("math.cos(azimuth_deg - surface_azimuth_deg))",
                                      "math.cos(math.radians(azimuth_deg - surface_azimuth_deg)))")])
patch("/app/pvyield/power.py", [("(1.0 - plant.gamma_pdc_pct_per_c / 100.0", "(1.0 + plant.gamma_pdc_pct_per_c / 100.0"),
                                ("min(pdc, plant.ac_limit_kw) * eta, max(pdc - plant.ac_limit_kw, 0.0) * eta",
                                 "min(pdc * eta, plant.ac_limit_kw), max(pdc * eta - plant.ac_limit_kw, 0.0)")])
patch("/app/pvyield/weather.py", [("    shift = timedelta(0)\n",
                                   "    shift = timedelta(minutes=step) if meta.get(\"timestamp_label\", \"start\").lower() == \"end\" else timedelta(0)\n")])
PY
