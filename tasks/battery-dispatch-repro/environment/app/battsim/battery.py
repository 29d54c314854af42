"""Battery state: stored energy between the state-of-charge limits, efficiency split per direction."""
class Battery:
    def __init__(self, spec):
        self.capacity = float(spec["capacity_kwh"])
        self.power = float(spec["power_kw"])
        rte = float(spec["round_trip_efficiency"])
        # Losses are booked when energy goes in.
        self.eta_charge = rte
        self.eta_discharge = 1.0
        self.e_min = float(spec["soc_min"]) * self.capacity
        self.e_max = float(spec["soc_max"]) * self.capacity
        self.energy = float(spec["soc_initial"]) * self.capacity

    @property
    def usable(self):
        return self.e_max - self.e_min

    def max_discharge_kw(self, dt_h):
        """AC power the battery can deliver over dt_h without going below the minimum SoC."""
        return max(0.0, min(self.power, (self.energy - self.e_min) * self.eta_discharge))

    def max_charge_kw(self, dt_h):
        """AC power the battery can take over dt_h without going above the maximum SoC."""
        return max(0.0, min(self.power, (self.e_max - self.energy) / (self.eta_charge * dt_h)))

    def discharge(self, kw, dt_h):
        """Deliver kw for dt_h; returns the energy drawn from storage (kWh)."""
        drawn = kw * dt_h / self.eta_discharge
        self.energy -= drawn
        return drawn

    def charge(self, kw, dt_h):
        """Take kw for dt_h; returns the energy added to storage (kWh)."""
        stored = kw * dt_h * self.eta_charge
        self.energy += stored
        return stored
