"""Exact-reference solutions for first-order (linear) reaction networks.

c(t) = exp(K t) c(0), with the matrix exponential evaluated in 34-digit decimal arithmetic by
scaling and squaring of a Taylor series: a route that shares nothing with an ODE integrator.
"""
from decimal import Decimal, localcontext

DIGITS = 34


def _matmul(a, b):
    n = len(a)
    cols = [[b[k][j] for k in range(n)] for j in range(n)]
    return [[sum(x * y for x, y in zip(row, col)) for col in cols] for row in a]


def _matvec(a, v):
    return [sum(x * y for x, y in zip(row, v)) for row in a]


def expm(k, t):
    """exp(K t) as a list of Decimal rows; K given as floats (exactly converted)."""
    n = len(k)
    with localcontext() as ctx:
        ctx.prec = DIGITS
        a = [[Decimal(k[i][j]) * Decimal(t) for j in range(n)] for i in range(n)]
        norm = max((sum(abs(x) for x in row) for row in a), default=Decimal(0))
        s = 0
        while norm > Decimal("0.125"):
            norm /= 2
            s += 1
        scale = Decimal(2) ** s
        a = [[x / scale for x in row] for row in a]
        result = [[Decimal(1) if i == j else Decimal(0) for j in range(n)] for i in range(n)]
        term = [row[:] for row in result]
        for m in range(1, 40):
            term = _matmul(term, a)
            term = [[x / m for x in row] for row in term]
            result = [[x + y for x, y in zip(r1, r2)] for r1, r2 in zip(result, term)]
            if max(abs(x) for row in term for x in row) < Decimal(10) ** (-DIGITS):
                break
        for _ in range(s):
            result = _matmul(result, result)
        return result


def propagate(k, c0, times):
    """Exact concentrations at each time (floats)."""
    with localcontext() as ctx:
        ctx.prec = DIGITS
        v = [Decimal(x) for x in c0]
        return [[float(x) for x in _matvec(expm(k, t), v)] for t in times]


def scan(k, c0, t_end, m):
    """Exact states at t_end * z / m for z = 1..m (one exponential, m products)."""
    with localcontext() as ctx:
        ctx.prec = DIGITS
        step = expm(k, Decimal(t_end) / m)
        v, out = [Decimal(x) for x in c0], []
        for _ in range(m):
            v = _matvec(step, v)
            out.append([float(x) for x in v])
        return out


def first_crossing(k, c0, index, value, t_end, grid=400):
    """First t in [0, t_end] with c_index(t) >= value, or None: a grid scan of exact states,
    then bisection on the exact solution inside the first bracketing interval."""
    with localcontext() as ctx:
        ctx.prec = DIGITS
        v = [Decimal(x) for x in c0]
        target = Decimal(value)
        if v[index] >= target:
            return 0.0
        h = Decimal(t_end) / grid
        step = expm(k, h)
        prev_t, prev = Decimal(0), v
        for i in range(1, grid + 1):
            cur = _matvec(step, prev)
            if cur[index] >= target:
                # Bisection with exact sub-steps: halves[j] = exp(K h / 2^(j+1)), from the
                # smallest one (Taylor series) by repeated squaring.
                halves = [expm(k, h / Decimal(2) ** 50)]
                for _ in range(49):
                    halves.append(_matmul(halves[-1], halves[-1]))
                halves.reverse()
                lo, state = Decimal(0), prev
                for j in range(50):
                    trial = _matvec(halves[j], state)
                    if trial[index] < target:
                        lo, state = lo + h / Decimal(2) ** (j + 1), trial
                return float(prev_t + lo + h / Decimal(2) ** 50)
            prev_t, prev = prev_t + h, cur
        return None
