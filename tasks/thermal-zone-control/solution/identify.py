#!/usr/bin/env python3
"""Identify the zone parameters from a logged run.

  python3 /app/identify.py LOG.csv            -> parameter JSON on stdout

Least squares on the exact zero-order-hold discretisation x[k+1] = Ad x[k] + Gd u[k] (one regression
per state), then back to continuous time through the matrix logarithm of Ad.
"""
import csv, json, math, sys


def solve(m, v):
    """Gaussian elimination with partial pivoting."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[piv] = a[piv], a[c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            for j in range(c, n + 1):
                a[r][j] -= f * a[c][j]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        out[r] = (a[r][n] - sum(a[r][j] * out[j] for j in range(r + 1, n))) / a[r][r]
    return out


def ivsolve(zs, xs, ys):
    """Instrumental-variable least squares: (Z'X) theta = Z'y. With the measured states of the
    previous sample as instruments, white sensor noise on the regressors causes no bias."""
    k = len(xs[0])
    zx = [[sum(z[i] * x[j] for z, x in zip(zs, xs)) for j in range(k)] for i in range(k)]
    zy = [sum(z[i] * y for z, y in zip(zs, ys)) for i in range(k)]
    return solve(zx, zy)


def logm2(m):
    """Matrix logarithm of a 2x2 matrix with real positive eigenvalues."""
    tr, det = m[0][0] + m[1][1], m[0][0] * m[1][1] - m[0][1] * m[1][0]
    root = math.sqrt(max(tr * tr / 4 - det, 0.0))
    mu1, mu2 = tr / 2 + root, tr / 2 - root
    eye = ((1.0, 0.0), (0.0, 1.0))
    if abs(mu1 - mu2) < 1e-12:
        # Nearly equal eigenvalues: log(A) = log(mu) I + (A - mu I)/mu
        return [[math.log(mu1) * eye[i][j] + (m[i][j] - mu1 * eye[i][j]) / mu1 for j in range(2)] for i in range(2)]
    l1, l2 = math.log(mu1), math.log(mu2)
    return [[(l1 * (m[i][j] - mu2 * eye[i][j]) - l2 * (m[i][j] - mu1 * eye[i][j])) / (mu1 - mu2) for j in range(2)]
            for i in range(2)]


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def inv2(m):
    det = m[0][0] * m[1][1] - m[0][1] * m[1][0]
    return [[m[1][1] / det, -m[0][1] / det], [-m[1][0] / det, m[0][0] / det]]


def read_log(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f)]
    out = []
    for r in rows:
        heat = float(r["heat_w"]) if r.get("heat_w") not in (None, "") else float(r["heat_kw"]) * 1000.0
        out.append((float(r["time_s"]), float(r["t_out_c"]), heat, float(r["solar_w_m2"]),
                    float(r["t_air_c"]), float(r["t_mass_c"])))
    out.sort()
    return out


def identify(rows):
    dt = rows[1][0] - rows[0][0]
    zs, xs, ya, ym = [], [], [], []
    for p, a, b in zip(rows, rows[1:], rows[2:]):
        if abs((b[0] - a[0]) - dt) > 1e-6 or abs((a[0] - p[0]) - dt) > 1e-6:
            continue
        xs.append((a[4], a[5], a[1], a[2] / 1000.0, a[3] / 100.0))
        zs.append((p[4], p[5], a[1], a[2] / 1000.0, a[3] / 100.0))
        ya.append(b[4])
        ym.append(b[5])
    ra, rm = ivsolve(zs, xs, ya), ivsolve(zs, xs, ym)
    scale = (1.0, 1.0, 1.0, 1e-3, 1e-2)
    ra = [c * s for c, s in zip(ra, scale)]
    rm = [c * s for c, s in zip(rm, scale)]
    ad = [[ra[0], ra[1]], [rm[0], rm[1]]]
    gd = [[ra[2], ra[3], ra[4]], [rm[2], rm[3], rm[4]]]
    ac = [[v / dt for v in row] for row in logm2(ad)]
    adi = [[ad[i][j] - (1.0 if i == j else 0.0) for j in range(2)] for i in range(2)]
    bc = matmul(matmul(inv2(adi), ac), gd)
    c_air = 1.0 / bc[0][1]
    r_am = 1.0 / (ac[0][1] * c_air)
    c_mass = 1.0 / (ac[1][0] * r_am)
    r_ao = 1.0 / (bc[0][0] * c_air)
    aperture = bc[0][2] * c_air
    return dict(c_air_j_per_k=c_air, c_mass_j_per_k=c_mass, r_am_k_per_w=r_am, r_ao_k_per_w=r_ao,
                solar_aperture_m2=aperture)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: identify.py LOG.csv")
    print(json.dumps(identify(read_log(sys.argv[1])), indent=2))


if __name__ == "__main__":
    main()
