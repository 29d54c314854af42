"""CSV writers for the dispatch table, the monthly bill table and the study table."""
import csv

from .degradation import cycles, monthly_throughput
from .tariff import monthly_bills


def _w(path):
    f = open(path, "w", encoding="utf-8", newline="")
    return f, csv.writer(f, lineterminator="\n")


def write_dispatch(path, steps):
    f, w = _w(path)
    with f:
        w.writerow(["start", "load_kw", "price", "charge_kw", "discharge_kw", "grid_kw", "soc_kwh"])
        for s in steps:
            iv = s.interval
            w.writerow([iv.key, "%.6f" % iv.load_kw, "%.6f" % iv.price, "%.6f" % s.charge_kw,
                        "%.6f" % s.discharge_kw, "%.6f" % s.grid_kw, "%.6f" % s.soc_kwh])


def write_bill(path, steps, battery, site):
    tariff = site["tariff"]
    base = monthly_bills([(s.interval, s.interval.load_kw) for s in steps], tariff)
    bills = monthly_bills([(s.interval, s.grid_kw) for s in steps], tariff)
    thr = monthly_throughput(steps)
    rate = float(site["degradation_cost_per_kwh"])
    f, w = _w(path)
    with f:
        w.writerow(["month", "baseline_energy_cost", "baseline_peak_kw", "baseline_demand_cost", "energy_cost",
                    "peak_kw", "demand_cost", "savings", "throughput_kwh", "equivalent_full_cycles",
                    "degradation_cost"])
        for m, b in base.items():
            n = bills[m]
            t = thr.get(m, 0.0)
            w.writerow([m, "%.4f" % b.energy_cost, "%.6f" % b.peak_kw, "%.4f" % b.demand_cost,
                        "%.4f" % n.energy_cost, "%.6f" % n.peak_kw, "%.4f" % n.demand_cost,
                        "%.4f" % (b.total - n.total), "%.6f" % t, "%.6f" % cycles(t, battery), "%.4f" % (t * rate)])


def write_study(path, rows, columns):
    f, w = _w(path)
    with f:
        w.writerow(columns)
        for r in rows:
            w.writerow(["%.6f" % r[c] for c in columns])
