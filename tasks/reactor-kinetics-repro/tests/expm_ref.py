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


def dense(k, c0, t_end, grid=400, per_octave=8):
    """Exact states [(t, state)] on a grid that resolves a run's fast transients as well as its
    whole span (a stiff network's intermediate can rise and fall again within a microsecond, far
    inside a uniform grid's first step): up to t_end / grid, octaves of per_octave equal steps
    each, the step doubling from one octave to the next; then t_end * z / grid for z = 2..grid.
    The first octave ends near 0.001 / the largest outflow rate: before it every concentration has
    moved by less than 0.2% of the total (the column sums of |K| are at most twice that rate), too
    little for a hump between grid points. Decimal states; one matrix exponential per part."""
    with localcontext() as ctx:
        ctx.prec = DIGITS
        v = [Decimal(x) for x in c0]
        h = Decimal(t_end) / grid
        lam = max(abs(Decimal(k[i][i])) for i in range(len(k)))
        octaves = 1
        while octaves < 60 and h / Decimal(2) ** octaves * lam > Decimal("0.001"):
            octaves += 1
        # Octave o takes per_octave steps of step0 * 2^o: they end at step0 * per_octave * (2^octaves - 1) = h.
        dt = h / (per_octave * (Decimal(2) ** octaves - 1))
        step = expm(k, dt)
        out, t, state = [], Decimal(0), v
        for o in range(octaves):
            if o:
                step, dt = _matmul(step, step), dt * 2
            for _ in range(per_octave):
                t, state = t + dt, _matvec(step, state)
                out.append((t, state))
        step = expm(k, h)
        for z in range(2, grid + 1):
            state = _matvec(step, state)
            out.append((h * z, state))
        return out


def peak(states, c0, index):
    """The species' largest concentration at t = 0 and over dense()'s states (float)."""
    return max(c0[index], float(max(st[index] for _, st in states)))


def first_crossing(k, c0, index, value, states):
    """First t in [0, t_end] with c_index(t) >= value, or None: a scan of the dense grid's exact
    states (dense(k, c0, t_end)), then bisection on the exact solution inside the first
    bracketing interval."""
    with localcontext() as ctx:
        ctx.prec = DIGITS
        v = [Decimal(x) for x in c0]
        target = Decimal(value)
        if v[index] >= target:
            return 0.0
        prev_t, prev = Decimal(0), v
        for t, cur in states:
            if cur[index] >= target:
                # Bisection with exact sub-steps: halves[j] = exp(K L / 2^(j+1)) for the interval's
                # length L, from the smallest one (Taylor series) by repeated squaring.
                span = t - prev_t
                halves = [expm(k, span / Decimal(2) ** 50)]
                for _ in range(49):
                    halves.append(_matmul(halves[-1], halves[-1]))
                halves.reverse()
                lo, state = Decimal(0), prev
                for j in range(50):
                    trial = _matvec(halves[j], state)
                    if trial[index] < target:
                        lo, state = lo + span / Decimal(2) ** (j + 1), trial
                return float(prev_t + lo + span / Decimal(2) ** 50)
            prev_t, prev = t, cur
        return None
