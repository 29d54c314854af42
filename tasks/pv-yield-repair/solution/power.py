"""Cell temperature (Sandia open rack), DC power (linear temperature coefficient), inverter."""
import math

A, B, DT = -3.56, -0.075, 3.0


def cell_temperature(poa, temp_air, wind):
    module = temp_air + poa * math.exp(A + B * wind)
    return module + poa / 1000.0 * DT


def dc_power(plant, poa, t_cell):
    p = plant.dc_capacity_kw * poa / 1000.0 * (1.0 + plant.gamma_pdc_pct_per_c / 100.0 * (t_cell - 25.0))
    return max(p * (1.0 - plant.dc_loss_fraction), 0.0)


def ac_power(plant, pdc):
    """Returns (ac_kw, clipped_kw)."""
    raw = pdc * plant.inverter_efficiency
    return min(raw, plant.ac_limit_kw), max(raw - plant.ac_limit_kw, 0.0)
