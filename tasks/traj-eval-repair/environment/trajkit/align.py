"""Least-squares alignment of an estimated trajectory onto the ground truth (Umeyama 1991)."""
from .geometry import matmul, matvec, sub, transpose
from .linalg import svd3


def umeyama(src, dst, with_scale):
    """Finds s, R, t minimising sum |dst_i - (s R src_i + t)|^2 (R proper, s = 1 unless with_scale).

    Returns (s, R, t).
    """
    n = len(src)
    mu_s = [sum(p[k] for p in src) / n for k in range(3)]
    mu_d = [sum(p[k] for p in dst) / n for k in range(3)]
    cov = [[0.0] * 3 for _ in range(3)]
    var_d = 0.0
    for ps, pd in zip(src, dst):
        a = sub(ps, mu_s)
        b = sub(pd, mu_d)
        var_d += b[0] * b[0] + b[1] * b[1] + b[2] * b[2]
        for i in range(3):
            for j in range(3):
                cov[i][j] += b[i] * a[j]
    cov = [[c / n for c in row] for row in cov]
    var_d /= n
    u, d, v = svd3(cov)
    r = matmul(u, transpose(v))
    s = sum(d) / var_d if with_scale else 1.0
    rm = matvec(r, mu_s)
    t = [mu_d[k] - s * rm[k] for k in range(3)]
    return s, r, t


def apply(s, r, t, p):
    q = matvec(r, p)
    return [s * q[0] + t[0], s * q[1] + t[1], s * q[2] + t[2]]
