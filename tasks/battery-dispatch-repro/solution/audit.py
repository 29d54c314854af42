"""Audit of a vendor's recorded dispatch log against the site's constraints and claimed savings."""
import csv
import os

from .battery import Battery
from .tariff import monthly_bills
from .timeseries import DT_H, read_load, read_log, read_table

TOL_LIMIT = 0.001   # kW / kWh beyond a limit before it is a violation
TOL_BALANCE = 0.01  # kW
TOL_SOC = 0.01      # kWh
TOL_CLAIM = 0.01    # currency units


def audit(site_dir, site):
    intervals = read_load(site_dir)
    log = read_log(os.path.join(site_dir, "vendor_log.csv"))
    bat = Battery(site["battery"])
    out = []
    prev = bat.energy
    grid = []
    for iv in intervals:
        r = log[iv.key]
        c, d, g, soc = r["charge_kw"], r["discharge_kw"], r["grid_kw"], r["soc_kwh"]
        if soc < bat.e_min - TOL_LIMIT or soc > bat.e_max + TOL_LIMIT:
            out.append((iv.key, "SOC_RANGE", soc))
        if c > bat.power + TOL_LIMIT or d > bat.power + TOL_LIMIT:
            out.append((iv.key, "POWER_LIMIT", max(c, d)))
        if g < -TOL_LIMIT:
            out.append((iv.key, "EXPORT", g))
        mismatch = g - (iv.load_kw - d + c)
        if abs(mismatch) > TOL_BALANCE:
            out.append((iv.key, "BALANCE", mismatch))
        resid = soc - bat.expected_energy(prev, c, d, DT_H)
        if abs(resid) > TOL_SOC:
            out.append((iv.key, "EFFICIENCY", resid))
        prev = soc
        grid.append((iv, g))
    base = monthly_bills([(iv, iv.load_kw) for iv in intervals], site["tariff"])
    withb = monthly_bills(grid, site["tariff"])
    _, claims = read_table(os.path.join(site_dir, "vendor_claims.csv"))
    for c in claims:
        m = c["month"]
        if m not in base:
            continue
        saving = base[m].total - withb[m].total
        if abs(float(c["claimed_savings"]) - saving) > TOL_CLAIM:
            out.append((m, "CLAIM", saving))
    out.sort(key=lambda x: (x[0], x[1]))
    return out


def write_audit(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["key", "code", "value"])
        for key, code, v in rows:
            w.writerow([key, code, "%.6f" % v])
