"""The farm report: curve.csv, monthly.csv, summary.csv (SPEC.md section 9)."""
import csv
import os

from .aep import aep_mwh
from .availability import pct, tally
from .binning import WIDTH, measured_curve
from .density import normalise
from .filters import usable
from .scada import read_turbine
from .site import Site
from .timebase import month_of


def analyse(site, turbine):
    recs = read_turbine(site, turbine)
    used = normalise(usable(recs), turbine)
    curve = measured_curve(used)
    months, whole = tally(recs)
    aep = aep_mwh(curve, site.aep, float(turbine["cut_out_ms"]))
    return {"records": recs, "used": used, "curve": curve, "months": months, "whole": whole, "aep": aep}


def fmt(v, d):
    return "" if v is None else "%.*f" % (d, v)


def run(folder, out_dir):
    site = Site(folder)
    os.makedirs(out_dir, exist_ok=True)
    curve_rows, month_rows, summary_rows = [], [], []
    for t in site.turbines:
        res = analyse(site, t)
        for c in res["curve"]:
            curve_rows.append([t["id"], c["bin"], "%.1f" % (c["bin"] * WIDTH), c["n"], fmt(c["ws"], 3), fmt(c["power"], 2), c["filled"]])
        for m in sorted(res["months"]):
            s = res["months"][m]
            used = sum(1 for r in res["used"] if month_of(r["start"]) == m)
            month_rows.append([t["id"], m, s["records"], used, fmt(s["energy_kwh"] / 1000.0, 3), fmt(s["available"] / 6.0, 2),
                               fmt(s["unavailable"] / 6.0, 2), fmt(pct(s), 3)])
        summary_rows.append([t["id"], len(res["used"]), len(res["curve"]), fmt(res["aep"], 2), fmt(pct(res["whole"]), 3)])
    write(os.path.join(out_dir, "curve.csv"), ["turbine", "bin", "ws_centre", "n", "ws_mean", "power_kw", "filled"], curve_rows)
    write(os.path.join(out_dir, "monthly.csv"), ["turbine", "month", "records", "used", "energy_mwh", "available_h", "unavailable_h", "availability_pct"], month_rows)
    write(os.path.join(out_dir, "summary.csv"), ["turbine", "used", "curve_bins", "aep_mwh", "availability_pct"], summary_rows)


def write(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
