"""The sizing study: one year of site load, a list of battery sizes, annual savings per size."""
import json
import os

from .battery import Battery
from .degradation import cycles
from .policy import Policy, dispatch
from .tariff import monthly_bills
from .timeseries import read_load

COLUMNS = ("capacity_kwh", "power_kw", "baseline_cost", "battery_cost", "energy_savings", "demand_savings",
           "bill_savings", "equivalent_full_cycles", "degradation_cost", "net_savings")


def run_study(study_dir):
    with open(os.path.join(study_dir, "study.json"), encoding="utf-8") as f:
        study = json.load(f)
    intervals = read_load(study_dir)
    base = monthly_bills([(iv, iv.load_kw) for iv in intervals], study["tariff"])
    rows = []
    for size in study["sizes"]:
        spec = dict(study["battery"])
        spec.update(size)
        battery = Battery(spec)
        shave = float(study["target_shave_fraction"]) * battery.power
        targets = {m: max(0.0, b.peak_kw - shave) for m, b in base.items()}
        policy = Policy({"charge_price_max": study["charge_price_max"], "demand_target_kw": targets})
        # One continuous simulation over the whole file: the SoC carries across months.
        steps = dispatch(intervals, battery, policy)
        bills = monthly_bills([(s.interval, s.grid_kw) for s in steps], study["tariff"])
        throughput = sum(s.drawn_kwh for s in steps)
        energy_sav = sum(base[m].energy_cost - bills[m].energy_cost for m in base)
        demand_sav = sum(base[m].demand_cost - bills[m].demand_cost for m in base)
        degradation = throughput * float(study["degradation_cost_per_kwh"])
        rows.append({
            "capacity_kwh": battery.capacity, "power_kw": battery.power,
            "baseline_cost": sum(b.total for b in base.values()),
            "battery_cost": sum(b.total for b in bills.values()),
            "energy_savings": energy_sav, "demand_savings": demand_sav,
            "bill_savings": energy_sav + demand_sav,
            "equivalent_full_cycles": cycles(throughput, battery),
            "degradation_cost": degradation,
            "net_savings": energy_sav + demand_sav - degradation,
        })
    return rows
