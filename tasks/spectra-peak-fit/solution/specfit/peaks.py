"""Peak models and the Levenberg-Marquardt fit of one peak in one window.

The fit evaluates its model at every point of the window several times per iteration, which is
most of a batch's run time. So the model works on the whole window at once (list comprehensions,
not a function call per point), the height's Jacobian column reuses the shape (the height only
scales it), and a trial step's model values are kept for the next iteration when the step is
taken. Every value is still formed by the same floating-point operations in the same order as the
plain per-point formulas below, so the fitted numbers do not change in the last digit
((x - c) ** 2 stays a power: pow(u, 2) and u * u differ in the last bit for some u).

    gaussian(x)     = h * exp(-4.0 * LN2 * (x - c) ** 2 / (w * w))
    lorentzian(x)   = h / (1.0 + 4.0 * (x - c) ** 2 / (w * w))
    pseudo_voigt(x) = eta * lorentzian(x) + (1.0 - eta) * gaussian(x)
"""
import math
from operator import mul

from .linalg import solve

LN2 = math.log(2.0)
MODELS = ("gaussian", "lorentzian", "pseudo_voigt")


def gaussian_exponent(w):
    """(k, ww): the Gaussian of FWHM w is h * exp(k * (x - c) ** 2 / ww)."""
    return -4.0 * LN2, w * w


class Model:
    """One peak model on the axis xs of one window.

    shape(c, w) is the part that does not depend on the height: the Gaussian factor
    exp(k * (x - c) ** 2 / ww) and/or the Lorentzian denominator 1.0 + 4.0 * (x - c) ** 2 / (w * w)
    at every x; values(shape, h) is the model at every x.
    """

    def __init__(self, name, eta, xs):
        if name not in MODELS:
            raise ValueError("unknown peak model: %s" % name)
        self.gauss = name != "lorentzian"
        self.lorentz = name != "gaussian"
        self.eta, self.rest = eta, 1.0 - eta
        self.xs = xs

    def shape(self, c, w):
        xs, exp = self.xs, math.exp
        k, ww = gaussian_exponent(w)
        lw = w * w
        if not self.lorentz:
            return [exp(k * (x - c) ** 2 / ww) for x in xs], None
        if not self.gauss:
            return None, [1.0 + 4.0 * (x - c) ** 2 / lw for x in xs]
        gs, ls = [], []
        for x in xs:
            u = (x - c) ** 2
            gs.append(exp(k * u / ww))
            ls.append(1.0 + 4.0 * u / lw)
        return gs, ls

    def values(self, shape, h):
        gs, ls = shape
        if ls is None:
            return [h * g for g in gs]
        if gs is None:
            return [h / d for d in ls]
        eta, rest = self.eta, self.rest
        return [eta * (h / d) + rest * (h * g) for g, d in zip(gs, ls)]

    def difference(self, c, h, w, vals, step):
        """(f(x; c, h, w) - vals) / step at every x: a forward-difference Jacobian column, with the
        model formula written out once more so each point takes a single pass."""
        xs, exp, eta, rest = self.xs, math.exp, self.eta, self.rest
        k, ww = gaussian_exponent(w)
        lw = w * w
        if not self.lorentz:
            return [(h * exp(k * (x - c) ** 2 / ww) - v) / step for x, v in zip(xs, vals)]
        if not self.gauss:
            return [(h / (1.0 + 4.0 * (x - c) ** 2 / lw) - v) / step for x, v in zip(xs, vals)]
        return [(eta * (h / (1.0 + 4.0 * (u := (x - c) ** 2) / lw)) + rest * (h * exp(k * u / ww)) - v)
                / step for x, v in zip(xs, vals)]


def area(name, eta, h, w):
    ga = h * w * math.sqrt(math.pi / (4.0 * LN2))
    la = math.pi * h * w / 2.0
    if name == "gaussian":
        return ga
    if name == "lorentzian":
        return la
    return eta * la + (1.0 - eta) * ga


def initial_guess(xs, ys):
    k = max(range(len(ys)), key=lambda i: ys[i])
    c, h = xs[k], ys[k]
    left = k
    while left > 0 and ys[left] > h / 2.0:
        left -= 1
    right = k
    while right < len(ys) - 1 and ys[right] > h / 2.0:
        right += 1
    step = (xs[-1] - xs[0]) / max(len(xs) - 1, 1)
    w = max(xs[right] - xs[left], 2.0 * step)
    return [c, h, w]


def _ssr(ys, vals):
    return sum([(y - v) ** 2 for y, v in zip(ys, vals)])


def _dot(a, b):
    """sum(a[i] * b[i]): the products in order, added as sum() adds any list of them."""
    return sum(map(mul, a, b))


def fit_peak(xs, ys, name, eta):
    """Least-squares fit of centre, height and FWHM; returns (params, r2)."""
    model = Model(name, eta, xs)
    p = initial_guess(xs, ys)
    lam = 1e-3
    shape = model.shape(p[0], p[2])
    vals = model.values(shape, p[1])  # the model at p (kept from the step that reached p)
    cur = _ssr(ys, vals)
    for _ in range(300):
        # forward differences: column j is (f(x; p with p[j] + d[j]) - f(x; p)) / d[j]
        c, h, w = p
        d = [1e-7 * max(abs(p[j]), 1e-3) for j in range(3)]
        cols = [model.difference(c + d[0], h, w, vals, d[0]),
                [(f - v) / d[1] for f, v in zip(model.values(shape, h + d[1]), vals)],
                model.difference(c, h, w + d[2], vals, d[2])]
        res = [y - v for y, v in zip(ys, vals)]
        # J^T J is symmetric: the products r[i] * r[j] and r[j] * r[i] are the same floats
        jtj = [[0.0] * 3 for _ in range(3)]
        for i in range(3):
            for j in range(i, 3):
                jtj[i][j] = jtj[j][i] = _dot(cols[i], cols[j])
        jtr = [_dot(cols[i], res) for i in range(3)]
        improved = False
        while lam < 1e12:
            a = [[jtj[i][j] * (1.0 + lam if i == j else 1.0) for j in range(3)] for i in range(3)]
            try:
                step = solve(a, jtr)
            except ZeroDivisionError:
                lam *= 10.0
                continue
            q = [p[j] + step[j] for j in range(3)]
            if q[2] <= 0:
                lam *= 10.0
                continue
            q_shape = model.shape(q[0], q[2])
            q_vals = model.values(q_shape, q[1])
            new = _ssr(ys, q_vals)
            if new < cur:
                done = cur - new <= 1e-13 * max(cur, 1e-300)
                p, cur = q, new
                shape, vals = q_shape, q_vals
                lam = max(lam / 10.0, 1e-12)
                improved = True
                break
            lam *= 10.0
        if not improved or done:
            break
    mean = sum(ys) / len(ys)
    tot = sum((y - mean) ** 2 for y in ys)
    r2 = 1.0 - cur / tot if tot > 0 else 0.0
    return p, r2
