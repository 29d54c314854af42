"""Peak models and the Levenberg-Marquardt fit of one peak in one window."""
import math

from .linalg import solve

LN2 = math.log(2.0)


def gaussian(x, c, h, w):
    sigma = w / 2.0
    return h * math.exp(-((x - c) ** 2) / (2.0 * sigma * sigma))


def lorentzian(x, c, h, w):
    return h / (1.0 + 4.0 * (x - c) ** 2 / (w * w))


def model_fn(name, eta):
    if name == "gaussian":
        return gaussian
    if name == "lorentzian":
        return lorentzian
    if name == "pseudo_voigt":
        return lambda x, c, h, w: eta * lorentzian(x, c, h, w) + (1.0 - eta) * gaussian(x, c, h, w)
    raise ValueError("unknown peak model: %s" % name)


def area(name, eta, h, w):
    ga = h * w * math.sqrt(math.pi / (4.0 * LN2))
    la = math.pi * h * w / 2.0
    if name == "gaussian":
        return ga
    if name == "lorentzian":
        return la
    return eta * ga + (1.0 - eta) * la


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


def _ssr(f, xs, ys, p):
    return sum((y - f(x, *p)) ** 2 for x, y in zip(xs, ys))


def fit_peak(xs, ys, name, eta):
    """Least-squares fit of centre, height and FWHM; returns (params, r2)."""
    f = model_fn(name, eta)
    p = initial_guess(xs, ys)
    lam = 1e-3
    cur = _ssr(f, xs, ys, p)
    for _ in range(300):
        jac, res = [], []
        for x, y in zip(xs, ys):
            v = f(x, *p)
            row = []
            for j in range(3):
                d = 1e-7 * max(abs(p[j]), 1e-3)
                q = list(p)
                q[j] += d
                row.append((f(x, *q) - v) / d)
            jac.append(row)
            res.append(y - v)
        jtj = [[sum(r[i] * r[j] for r in jac) for j in range(3)] for i in range(3)]
        jtr = [sum(r[i] * e for r, e in zip(jac, res)) for i in range(3)]
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
            new = _ssr(f, xs, ys, q)
            if new < cur:
                done = cur - new <= 1e-13 * max(cur, 1e-300)
                p, cur = q, new
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
