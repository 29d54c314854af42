"""Monthly bills: energy charges on imports, demand charges on the month's maximum 15-minute demand."""
from .timeseries import DT_H


class Bill:
    __slots__ = ("month", "energy_cost", "peak_kw", "demand_cost")

    def __init__(self, month, energy_cost, peak_kw, demand_cost):
        self.month = month
        self.energy_cost = energy_cost
        self.peak_kw = peak_kw
        self.demand_cost = demand_cost

    @property
    def total(self):
        return self.energy_cost + self.demand_cost


def monthly_bills(pairs, tariff):
    """pairs: (interval, grid_kw) in time order -> {month: Bill} (insertion ordered)."""
    rate = float(tariff["demand_charge_per_kw"])
    energy, hours = {}, {}
    for iv, grid_kw in pairs:
        m = iv.key[:7]
        imported = max(grid_kw, 0.0)  # export is never credited
        energy[m] = energy.get(m, 0.0) + imported * DT_H * iv.price
        hours.setdefault(m, {}).setdefault(iv.key[:13], []).append(imported)
    peak = {m: max(sum(v) / len(v) for v in h.values()) for m, h in hours.items()}
    return {m: Bill(m, energy[m], peak[m], peak[m] * rate) for m in energy}
