"""3x3 singular value decomposition through a Jacobi eigen-solver (standard library only)."""
import math

from .geometry import matmul, transpose


def sym_eigen(a, sweeps=60):
    """Eigenvalues and eigenvectors (columns of v) of a symmetric 3x3 matrix, descending."""
    a = [row[:] for row in a]
    v = [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)]
    for _ in range(sweeps):
        off = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2
        scale = a[0][0] ** 2 + a[1][1] ** 2 + a[2][2] ** 2
        if off <= 1e-32 * max(scale, 1e-300):
            break
        for p, q in ((0, 1), (0, 2), (1, 2)):
            if a[p][q] == 0.0:
                continue
            theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q])
            t = (1.0 if theta >= 0 else -1.0) / (abs(theta) + math.sqrt(theta * theta + 1.0))
            c = 1.0 / math.sqrt(t * t + 1.0)
            s = t * c
            for k in range(3):
                akp, akq = a[k][p], a[k][q]
                a[k][p], a[k][q] = c * akp - s * akq, s * akp + c * akq
            for k in range(3):
                apk, aqk = a[p][k], a[q][k]
                a[p][k], a[q][k] = c * apk - s * aqk, s * apk + c * aqk
            for k in range(3):
                vkp, vkq = v[k][p], v[k][q]
                v[k][p], v[k][q] = c * vkp - s * vkq, s * vkp + c * vkq
    order = sorted(range(3), key=lambda i: -a[i][i])
    vals = [a[i][i] for i in order]
    vecs = [[v[r][i] for i in order] for r in range(3)]
    return vals, vecs


def _col(m, j):
    return [m[0][j], m[1][j], m[2][j]]


def _unit(x):
    n = math.sqrt(sum(c * c for c in x))
    return [c / n for c in x]


def _cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def svd3(h):
    """Returns (u, d, v) with h = u diag(d) v^T, d descending and non-negative."""
    vals, v = sym_eigen(matmul(transpose(h), h))
    d = [math.sqrt(max(x, 0.0)) for x in vals]
    cols = []
    for i in range(3):
        vi = _col(v, i)
        hv = [sum(h[r][k] * vi[k] for k in range(3)) for r in range(3)]
        if i < 2 or d[i] > 1e-12 * max(d[0], 1e-300):
            # Gram-Schmidt against the columns already found keeps U orthonormal.
            for c in cols:
                dot = sum(hv[k] * c[k] for k in range(3))
                hv = [hv[k] - dot * c[k] for k in range(3)]
            cols.append(_unit(hv))
        else:
            cols.append(_cross(cols[0], cols[1]))
    u = [[cols[j][r] for j in range(3)] for r in range(3)]
    return u, d, v
