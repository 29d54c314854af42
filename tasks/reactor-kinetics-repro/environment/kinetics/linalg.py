"""Dense LU factorisation with partial pivoting (small systems: a few dozen species)."""


class SingularMatrix(ArithmeticError):
    pass


def lu_factor(a):
    """Factors a square matrix (list of rows, copied). Returns (lu, piv)."""
    n = len(a)
    lu = [list(row) for row in a]
    piv = list(range(n))
    for k in range(n):
        p = max(range(k, n), key=lambda i: abs(lu[i][k]))
        if lu[p][k] == 0.0:
            raise SingularMatrix("singular matrix at column %d" % k)
        if p != k:
            lu[k], lu[p] = lu[p], lu[k]
            piv[k], piv[p] = piv[p], piv[k]
        pivot = lu[k][k]
        rowk = lu[k]
        for i in range(k + 1, n):
            rowi = lu[i]
            f = rowi[k] / pivot
            if f != 0.0:
                rowi[k] = f
                for j in range(k + 1, n):
                    rowi[j] -= f * rowk[j]
            else:
                rowi[k] = 0.0
    return lu, piv


def lu_solve(factored, b):
    lu, piv = factored
    n = len(lu)
    x = [b[piv[i]] for i in range(n)]
    for i in range(n):
        row = lu[i]
        s = x[i]
        for j in range(i):
            s -= row[j] * x[j]
        x[i] = s
    for i in range(n - 1, -1, -1):
        row = lu[i]
        s = x[i]
        for j in range(i + 1, n):
            s -= row[j] * x[j]
        x[i] = s / row[i]
    return x
