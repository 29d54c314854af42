"""Ridge regression with an unpenalised intercept (normal equations on the centred design)."""
from .linalg import cholesky_solve


class RidgeFit:
    def __init__(self, x, y, lam, penalise_intercept=False):
        n = len(y)
        if penalise_intercept:
            x = [[1.0] + row for row in x]
            self.xbar = [0.0] * len(x[0]) if x else []
            self.ybar = 0.0
        else:
            p = len(x[0]) if x else 0
            self.xbar = [sum(r[j] for r in x) / n for j in range(p)]
            self.ybar = sum(y) / n
        self.penalise_intercept = penalise_intercept
        p = len(self.xbar)
        xc = [[r[j] - self.xbar[j] for j in range(p)] for r in x]
        yc = [v - self.ybar for v in y]
        a = [[sum(r[i] * r[j] for r in xc) for j in range(p)] for i in range(p)]
        for i in range(p):
            a[i][i] += n * lam
        rhs = [sum(r[i] * t for r, t in zip(xc, yc)) for i in range(p)]
        self.w = cholesky_solve(a, rhs) if p else []

    def predict(self, x):
        out = []
        for r in x:
            if self.penalise_intercept:
                r = [1.0] + r
            out.append(self.ybar + sum((v - m) * w for v, m, w in zip(r, self.xbar, self.w)))
        return out
