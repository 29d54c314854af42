"""Ridge regression with an unpenalised intercept (normal equations on the centred design)."""
from operator import mul

from .linalg import cholesky_solve


class NormalEquations:
    """The centred normal equations of one training design.

    Cross-validation fits every fold again for each penalty on the grid, and only the diagonal
    of the system depends on the penalty: the means, X'X, X'y and the centred test rows are built
    once per fold here (the same sums of the same products, in the same order, as building them
    for each fit), then weights(lam) solves for one penalty."""

    def __init__(self, x, y, penalise_intercept=False):
        n = len(y)
        if penalise_intercept:
            x = [[1.0] + row for row in x]
            self.xbar = [0.0] * len(x[0]) if x else []
            self.ybar = 0.0
        else:
            p = len(x[0]) if x else 0
            self.xbar = [sum(r[j] for r in x) / n for j in range(p)]
            self.ybar = sum(y) / n
        self.n = n
        self.penalise_intercept = penalise_intercept
        p = len(self.xbar)
        cols = [[r[j] - self.xbar[j] for r in x] for j in range(p)]   # centred, column by column
        yc = [v - self.ybar for v in y]
        # sum over rows of xc[i] * xc[j]; symmetric, as xc[i] * xc[j] and xc[j] * xc[i] are one float
        self.gram = [[0.0] * p for _ in range(p)]
        for i in range(p):
            for j in range(i, p):
                self.gram[i][j] = self.gram[j][i] = sum(map(mul, cols[i], cols[j]))
        self.rhs = [sum(map(mul, cols[i], yc)) for i in range(p)]

    def weights(self, lam):
        p = len(self.xbar)
        a = [row[:] for row in self.gram]
        for i in range(p):
            a[i][i] += self.n * lam
        return cholesky_solve(a, self.rhs) if p else []

    def centre(self, x):
        """Rows to predict, centred with the training means (with the constant column first when
        the intercept is penalised)."""
        if self.penalise_intercept:
            x = [[1.0] + r for r in x]
        return [[v - m for v, m in zip(r, self.xbar)] for r in x]

    def predict(self, w, centred):
        return [self.ybar + sum(map(mul, r, w)) for r in centred]
