"""Temperature scaling by golden-section search on the validation NLL (SPEC.md section 9)."""
import math

from .metrics import nll

LO, HI, TOL = 0.1, 10.0, 1e-7


def fit(rows):
    r = (math.sqrt(5) - 1) / 2
    a, b = LO, HI
    c, d = b - r * (b - a), a + r * (b - a)
    fc, fd = nll(rows, c), nll(rows, d)
    while b - a > TOL:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - r * (b - a)
            fc = nll(rows, c)
        else:
            a, c, fc = c, d, fd
            d = a + r * (b - a)
            fd = nll(rows, d)
    return (a + b) / 2
