"""Fixed-step RK4 integration of the zone model over a logged input schedule.

Each input row holds from its own time stamp until the next row's time stamp (zero-order hold);
the time stamps need not be evenly spaced. The integrator never takes a step longer than MAX_STEP.
"""
import math

from .model import derivatives

MAX_STEP = 60.0   # s


def rk4(p, x, u, h):
    k1 = derivatives(p, x[0], x[1], u)
    k2 = derivatives(p, x[0] + 0.5 * h * k1[0], x[1] + 0.5 * h * k1[1], u)
    k3 = derivatives(p, x[0] + 0.5 * h * k2[0], x[1] + 0.5 * h * k2[1], u)
    k4 = derivatives(p, x[0] + h * k3[0], x[1] + h * k3[1], u)
    return (x[0] + h / 6.0 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]),
            x[1] + h / 6.0 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]))


def advance(p, x, u, dt):
    """State after dt seconds with inputs u held constant."""
    if dt <= 0:
        return x
    n = max(1, int(math.ceil(dt / MAX_STEP - 1e-9)))
    h = dt / n
    for _ in range(n):
        x = rk4(p, x, u, h)
    return x


def simulate(p, x0, rows):
    """rows: list of (time_s, Inputs) sorted by time. Returns [(time_s, t_air, t_mass)], one per row,
    the first being the initial state x0 at the first row's time."""
    out = [(rows[0][0], x0[0], x0[1])]
    x = tuple(x0)
    for (t_prev, u), (t, _) in zip(rows, rows[1:]):
        x = advance(p, x, u, t - t_prev)
        out.append((t, x[0], x[1]))
    return out
