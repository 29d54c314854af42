#!/usr/bin/env python3
"""Zone heating controller (JSON lines on stdin/stdout, see /app/README.md).

Model: the identified site parameters in /app/site_params.json, discretised exactly for the
controller's step (Taylor series of the augmented matrix exponential). Each step it heats just
enough that, with full power from the next step on, the air stays above the lower comfort bound
(plus a small margin) for the whole forecast: heating is put off as late as the power limit allows,
which is the cheapest way to meet a lower bound.
"""
import json, math, os, sys

PARAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "site_params.json")
MARGIN = 0.15         # K above the lower bound
GAIN_AIR = 0.3        # observer gains (measurements are blended into the model prediction)
GAIN_MASS = 0.08


def expm(m):
    """Matrix exponential by scaling and squaring with a Taylor series."""
    n = len(m)
    norm = max(sum(abs(v) for v in row) for row in m)
    s = max(0, int(math.ceil(math.log2(norm))) + 1) if norm > 0 else 0
    a = [[v / (2 ** s) for v in row] for row in m]
    result = [[float(i == j) for j in range(n)] for i in range(n)]
    term = [row[:] for row in result]
    for k in range(1, 20):
        term = [[sum(term[i][l] * a[l][j] for l in range(n)) / k for j in range(n)] for i in range(n)]
        result = [[result[i][j] + term[i][j] for j in range(n)] for i in range(n)]
    for _ in range(s):
        result = [[sum(result[i][l] * result[l][j] for l in range(n)) for j in range(n)] for i in range(n)]
    return result


def discrete_model(p, dt):
    ca, cm = p["c_air_j_per_k"], p["c_mass_j_per_k"]
    ua_m, ua_o = 1.0 / p["r_am_k_per_w"], 1.0 / p["r_ao_k_per_w"]
    # Augmented state (T_a, T_m, T_o, Q, S): inputs are constant over the step.
    m = [[-(ua_m + ua_o) / ca * dt, ua_m / ca * dt, ua_o / ca * dt, dt / ca, p["solar_aperture_m2"] / ca * dt],
         [ua_m / cm * dt, -ua_m / cm * dt, 0.0, 0.0, 0.0],
         [0.0] * 5, [0.0] * 5, [0.0] * 5]
    e = expm(m)
    return [row[:2] for row in e[:2]], [row[2:] for row in e[:2]]


class Controller:
    def __init__(self, init):
        with open(PARAMS) as f:
            self.p = json.load(f)
        self.dt = float(init["dt_s"])
        self.qmax = float(init["q_max_w"])
        self.ad, self.bd = discrete_model(self.p, self.dt)
        self.x = None
        self.last_u = None
        # Air temperature response j steps after one step of unit power (j = 1, 2, ...).
        self.unit = []
        x = [self.bd[0][1], self.bd[1][1]]
        for _ in range(int(init.get("horizon", 72)) + 1):
            self.unit.append(x[0])
            x = self.advance(x, (0.0, 0.0, 0.0))

    def advance(self, x, u):
        return [self.ad[i][0] * x[0] + self.ad[i][1] * x[1] + sum(self.bd[i][j] * u[j] for j in range(3))
                for i in range(2)]

    def observe(self, ta, tm):
        if self.x is None:
            guess = ta if ta is not None else tm if tm is not None else 18.0
            self.x = [guess if ta is None else ta, guess if tm is None else tm]
            return
        pred = self.advance(self.x, self.last_u)
        if ta is not None:
            pred[0] += GAIN_AIR * (ta - pred[0])
        if tm is not None:
            pred[1] += GAIN_MASS * (tm - pred[1])
        self.x = pred

    def act(self, obs):
        self.observe(obs.get("t_air_c"), obs.get("t_mass_c"))
        t_out, solar, lower = obs["t_out_c"], obs["solar_w_m2"], obs["lower_c"]
        horizon = min(len(t_out), len(lower))
        # Trajectory with no heat now and full heat afterwards; this step's power q adds q * unit[j].
        x = self.advance(self.x, (t_out[0], 0.0, solar[0]))
        need = 0.0
        for j in range(horizon):
            short = lower[j] + MARGIN - x[0]
            if short > 0:
                need = max(need, short / self.unit[j])
            if j + 1 < horizon:
                x = self.advance(x, (t_out[j + 1], self.qmax, solar[j + 1]))
        q = min(self.qmax, max(0.0, need))
        self.last_u = (t_out[0], q, solar[0])
        return q


def main():
    ctl = None
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "init":
            ctl = Controller(msg)
        elif kind == "obs":
            q = ctl.act(msg)
            sys.stdout.write(json.dumps({"heat_w": round(q, 3)}) + "\n")
            sys.stdout.flush()
        elif kind == "end":
            break


if __name__ == "__main__":
    main()
