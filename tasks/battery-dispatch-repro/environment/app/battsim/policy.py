"""The greedy rule-based dispatch policy."""
from .timeseries import DT_H


class Step:
    __slots__ = ("interval", "charge_kw", "discharge_kw", "grid_kw", "soc_kwh", "drawn_kwh")

    def __init__(self, interval, charge_kw, discharge_kw, grid_kw, soc_kwh, drawn_kwh):
        self.interval = interval
        self.charge_kw = charge_kw
        self.discharge_kw = discharge_kw
        self.grid_kw = grid_kw
        self.soc_kwh = soc_kwh
        self.drawn_kwh = drawn_kwh


class Policy:
    def __init__(self, spec):
        self.charge_price_max = float(spec["charge_price_max"])
        self.targets = {k: float(v) for k, v in spec["demand_target_kw"].items()}

    def target(self, month):
        return self.targets[month]


def dispatch(intervals, battery, policy):
    steps = []
    for iv in intervals:
        target = policy.target(iv.month)
        charge = discharge = drawn = 0.0
        soc = battery.energy
        if iv.load_kw > target:
            discharge = min(iv.load_kw - target, battery.max_discharge_kw(DT_H))
            drawn = battery.discharge(discharge, DT_H)
        elif iv.price <= policy.charge_price_max:
            charge = battery.max_charge_kw(DT_H)
            battery.charge(charge, DT_H)
        steps.append(Step(iv, charge, discharge, iv.load_kw - discharge + charge, soc, drawn))
    return steps
