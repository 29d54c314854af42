"""Two-node RC model of one heated zone.

State: air temperature T_a and thermal-mass temperature T_m, both in degrees C.
Inputs: outdoor temperature T_o (C), heater power Q (W), global irradiance S (W/m2).

    C_a dT_a/dt = (T_m - T_a)/R_am + (T_o - T_a)/R_ao + Q + A_s S
    C_m dT_m/dt = (T_a - T_m)/R_am

C in J/K, R in K/W, A_s (effective solar aperture) in m2. All heat flows are in W.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class ZoneParams:
    c_air: float      # J/K
    c_mass: float     # J/K
    r_am: float       # K/W, air <-> mass
    r_ao: float       # K/W, air <-> outdoors
    aperture: float   # m2

    def time_constants(self):
        """Rough time constants (s) of the air and mass nodes."""
        ua = 1.0 / self.r_am + 1.0 / self.r_ao
        return self.c_air / ua, self.c_mass * self.r_am


@dataclass(frozen=True)
class Inputs:
    t_out: float      # C
    heat: float       # W
    solar: float      # W/m2


def derivatives(p, t_air, t_mass, u):
    """(dT_a/dt, dT_m/dt) in K/s."""
    q_mass = (t_mass - t_air) / p.r_am
    q_env = (u.t_out - t_air) / p.r_ao
    q_sun = p.aperture * u.solar            # W/m2 times m2: W
    d_air = (q_mass + q_env + u.heat + q_sun) / p.c_air
    d_mass = -q_mass / p.c_mass
    return d_air, d_mass
