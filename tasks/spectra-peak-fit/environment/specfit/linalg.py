"""Small dense linear algebra: Gaussian elimination with partial pivoting."""


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


def lstsq_poly(xs, ys, degree):
    """Least-squares polynomial coefficients c[0] + c[1] x + ... (normal equations)."""
    k = degree + 1
    ata = [[0.0] * k for _ in range(k)]
    aty = [0.0] * k
    for x, y in zip(xs, ys):
        pw = [x ** j for j in range(k)]
        for i in range(k):
            aty[i] += pw[i] * y
            for j in range(k):
                ata[i][j] += pw[i] * pw[j]
    return solve(ata, aty)
