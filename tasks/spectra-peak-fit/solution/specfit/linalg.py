"""Small dense linear algebra: Gaussian elimination with partial pivoting."""
from functools import reduce
from operator import add, mul


def solve(a, b):
    n = len(b)
    m = [list(map(float, a[i])) + [float(b[i])] for i in range(n)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) < 1e-300:
            raise ZeroDivisionError("singular system")
        m[col], m[piv] = m[piv], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        acc = m[r][n] - sum(m[r][c] * out[c] for c in range(r + 1, n))
        out[r] = acc / m[r][r]
    return out


def _accumulate(a, b):
    """0.0 + a[0] * b[0] + a[1] * b[1] + ..., added one product at a time, left to right."""
    return reduce(add, map(mul, a, b), 0.0)


def lstsq_poly(xs, ys, degree):
    """Least-squares polynomial coefficients c[0] + c[1] x + ... (normal equations).

    Each sum of the normal equations is accumulated point by point in the order of xs, as a loop
    over the points would; the sums go one at a time over whole columns of powers (faster in
    Python), and A^T A is filled from its upper triangle (x^i x^j and x^j x^i are the same float).
    """
    k = degree + 1
    n = min(len(xs), len(ys))
    pw = [[x ** j for x in xs[:n]] for j in range(k)]  # pw[j][p] = xs[p] ** j
    ata = [[0.0] * k for _ in range(k)]
    aty = [_accumulate(pw[i], ys) for i in range(k)]
    for i in range(k):
        for j in range(i, k):
            ata[i][j] = ata[j][i] = _accumulate(pw[i], pw[j])
    return solve(ata, aty)
