"""Ridge regression (normal equations)."""
from .linalg import cholesky_solve


class RidgeFit:
    def __init__(self, x, y, lam):
        n = len(y)
        # the constant column carries the intercept
        xa = [[1.0] + row for row in x]
        p = len(xa[0])
        a = [[sum(r[i] * r[j] for r in xa) for j in range(p)] for i in range(p)]
        for i in range(p):
            a[i][i] += n * lam
        rhs = [sum(r[i] * t for r, t in zip(xa, y)) for i in range(p)]
        self.w = cholesky_solve(a, rhs)

    def predict(self, x):
        return [sum(v * w for v, w in zip([1.0] + r, self.w)) for r in x]
