"""Adaptive Rosenbrock (2,3) integrator for stiff autonomous systems.

This is the L-stable modified Rosenbrock pair of Shampine and Reichelt (the method behind
MATLAB's ode23s): a second-order solution with a third-order error estimate, one LU
factorisation of W = I - h*d*J per step.
"""
import math

from .linalg import SingularMatrix, lu_factor, lu_solve

D = 1.0 / (2.0 + math.sqrt(2.0))
E32 = 6.0 + math.sqrt(2.0)


class IntegrationError(RuntimeError):
    pass


class Integrator:
    def __init__(self, model, rtol=1e-8, atol=1e-14, h0=None, hmax=None, max_steps=2_000_000):
        self.model = model
        self.rtol = rtol
        self.atol = atol
        self.h0 = h0
        self.hmax = hmax
        self.max_steps = max_steps
        self.steps = 0
        self.rejected = 0

    def step(self, y, h):
        """One Rosenbrock step of size h from y. Returns (y_new, error_vector)."""
        f = self.model.rhs
        n = len(y)
        jac = self.model.jacobian(y)
        hd = h * D
        w = [[(1.0 if i == j else 0.0) - hd * jac[i][j] for j in range(n)] for i in range(n)]
        lu = lu_factor(w)
        f0 = f(y)
        k1 = lu_solve(lu, f0)
        f1 = f([y[i] + 0.5 * h * k1[i] for i in range(n)])
        t = lu_solve(lu, [f1[i] - k1[i] for i in range(n)])
        k2 = [t[i] + k1[i] for i in range(n)]
        ynew = [y[i] + h * k2[i] for i in range(n)]
        f2 = f(ynew)
        k3 = lu_solve(lu, [f2[i] - E32 * (k2[i] - f1[i]) - 2.0 * (k1[i] - f0[i]) for i in range(n)])
        err = [h / 6.0 * (k1[i] - 2.0 * k2[i] + k3[i]) for i in range(n)]
        return ynew, err

    def error_norm(self, y, ynew, err):
        """Scaled size of the local error estimate: a step is accepted when it is <= 1."""
        total = sum(err)
        scale = self.atol + self.rtol * max(abs(v) for v in ynew)
        return abs(total) / scale

    def initial_step(self, y, span):
        if self.h0 is not None:
            return self.h0
        f0 = self.model.rhs(y)
        scale = max((abs(fi) / (self.atol + self.rtol * abs(yi)) for yi, fi in zip(y, f0)), default=0.0)
        h = 0.01 * span
        if scale > 0.0:
            h = min(h, 1.0 / scale)
        return max(h, 1e-12 * span)

    def solve(self, y0, times, on_step=None):
        """Integrates from t=0 and returns the state at every time in `times` (ascending, > 0).

        on_step(t0, y0, t1, y1) is called after every accepted step.
        """
        y = list(y0)
        t = 0.0
        out = []
        if not times:
            return out
        span = times[-1]
        h = self.initial_step(y, span)
        hmax = self.hmax if self.hmax is not None else span
        for target in times:
            if target < t:
                raise IntegrationError("output times must be ascending")
            while t < target:
                if self.steps >= self.max_steps:
                    raise IntegrationError("too many steps (%d) before t=%g" % (self.steps, target))
                h = min(h, hmax)
                last = t + h >= target * (1.0 - 1e-12)
                hs = target - t if last else h
                try:
                    ynew, err = self.step(y, hs)
                    norm = self.error_norm(y, ynew, err)
                except (SingularMatrix, OverflowError, ValueError):
                    norm = float("inf")
                if norm <= 1.0:
                    self.steps += 1
                    t_old, y_old = t, y
                    t = target if last else t + hs
                    y = ynew
                    if on_step is not None:
                        on_step(t_old, y_old, t, y)
                    fac = 5.0 if norm == 0.0 else min(5.0, max(0.2, 0.9 * norm ** (-1.0 / 3.0)))
                    if not last:
                        h = hs * fac
                else:
                    self.rejected += 1
                    fac = 0.2 if norm != norm or norm == float("inf") else max(0.2, 0.9 * norm ** (-1.0 / 3.0))
                    h = hs * fac
                    if h <= 1e-13 * abs(t) or h < 1e-300:
                        raise IntegrationError("step size underflow at t=%g" % t)
            out.append(list(y))
        return out
