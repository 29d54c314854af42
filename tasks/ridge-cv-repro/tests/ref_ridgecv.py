#!/usr/bin/env python3
"""Independent reference for the CV table: the same protocol reached by another numerical route.

The solution centres the design and solves the normal equations (XᵀX + nλI)w = Xᵀ(y − ȳ) by
Gauss-Jordan elimination. Here the intercept is an explicit, unpenalised column of the
uncentred design and the ridge fit is the least-squares solution of the augmented system
    [1  X     ] [b]   [y]
    [0  √(nλ)I] [w] = [0]
found by Householder QR and back substitution — never forming XᵀX. Both give the same
predictions (an unpenalised intercept absorbs the centring), so the table must agree to
rounding; ref_ridgecv.py reproduces both public examples' expected/ tables to the printed 8
decimals. The data are read column by column (csv.reader, not rows as dicts).
"""
import csv, gzip, io, json, math, os, sys

NA = ("", "na", "nan", "null", "?")


def read_columns(path):
    raw = open(path, "rb").read()
    if raw.startswith(b"\x1f\x8b"):
        raw = gzip.GzipFile(fileobj=io.BytesIO(raw)).read()
    text = raw.decode("utf-8-sig")
    head = text.split("\n", 1)[0]
    sep = "," if head.count(",") >= head.count(";") else ";"
    table = list(csv.reader(io.StringIO(text), delimiter=sep))
    names = table[0]
    body = [r for r in table[1:] if r]
    return {name: [r[j] if j < len(r) else "" for r in body] for j, name in enumerate(names)}


def is_na(cell):
    return cell.strip().lower() in NA


def feature_columns(cols, feats, cats, train_idx, all_idx):
    """Design columns (uncentred) for every row in all_idx, fitted on train_idx."""
    out = []
    for f in feats:
        cells = cols[f]
        if f in cats:
            seen = set()
            for i in train_idx:
                if not is_na(cells[i]):
                    seen.add(cells[i].strip())
            for level in sorted(seen):
                out.append([float(cells[i].strip() == level) for i in all_idx])
            continue
        known = [float(cells[i]) for i in train_idx if not is_na(cells[i])]
        mu = math.fsum(known) / len(known)
        filled = [mu if is_na(cells[i]) else float(cells[i]) for i in train_idx]
        # Imputed values sit at the mean, so the population variance is the known values' squared
        # deviations over all training rows.
        sigma = math.sqrt(math.fsum((v - mu) ** 2 for v in filled) / len(filled))
        if sigma == 0:
            out.append([0.0] * len(all_idx))
        else:
            out.append([((mu if is_na(cells[i]) else float(cells[i])) - mu) / sigma for i in all_idx])
    return out


def householder_lstsq(A, b):
    """Least-squares solution of A x ≈ b (A: m×p as a list of rows, m ≥ p, full column rank)."""
    m, p = len(A), len(A[0])
    R = [row[:] for row in A]
    z = b[:]
    for k in range(p):
        norm = math.sqrt(math.fsum(R[i][k] ** 2 for i in range(k, m)))
        if norm == 0:
            continue
        alpha = -norm if R[k][k] >= 0 else norm
        v = [0.0] * m
        v[k] = R[k][k] - alpha
        for i in range(k + 1, m):
            v[i] = R[i][k]
        vv = math.fsum(x * x for x in v[k:])
        if vv == 0:
            continue
        for j in range(k, p):
            s = 2 * math.fsum(v[i] * R[i][j] for i in range(k, m)) / vv
            for i in range(k, m):
                R[i][j] -= s * v[i]
        s = 2 * math.fsum(v[i] * z[i] for i in range(k, m)) / vv
        for i in range(k, m):
            z[i] -= s * v[i]
    x = [0.0] * p
    for k in range(p - 1, -1, -1):
        x[k] = (z[k] - math.fsum(R[k][j] * x[j] for j in range(k + 1, p))) / R[k][k]
    return x


def fold_rmse(cols, feats, cats, y, train_idx, test_idx, lam):
    design = feature_columns(cols, feats, cats, train_idx, train_idx + test_idx)
    n, p = len(train_idx), len(design)
    ridge = math.sqrt(n * lam)
    A = [[1.0] + [design[j][r] for j in range(p)] for r in range(n)]
    A += [[0.0] + [ridge if j == k else 0.0 for j in range(p)] for k in range(p)]
    rhs = [y[i] for i in train_idx] + [0.0] * p
    coef = householder_lstsq(A, rhs)
    err = []
    for t, i in enumerate(test_idx):
        pred = coef[0] + math.fsum(coef[1 + j] * design[j][n + t] for j in range(p))
        err.append((y[i] - pred) ** 2)
    return math.sqrt(math.fsum(err) / len(err))


def main():
    src, dst = sys.argv[1], sys.argv[2]
    cfg = json.load(open(os.path.join(src, "config.json")))
    cols = read_columns(os.path.join(src, cfg["data"]))
    keep = [i for i, c in enumerate(cols[cfg["target"]]) if not is_na(c)]
    cols = {k: [v[i] for i in keep] for k, v in cols.items()}
    y = [float(c) for c in cols[cfg["target"]]]
    fold = [c.strip() for c in cols[cfg["fold_column"]]]
    cats = set(cfg.get("categorical") or [])
    labels = sorted(set(fold))
    lines, best = ["feature_set,lambda,cv_rmse"], {}
    for fs in sorted(cfg["feature_sets"]):
        feats = cfg["feature_sets"][fs]
        scores = []
        for lam in cfg["lambdas"]:
            per_fold = []
            for k in labels:
                train_idx = [i for i, f in enumerate(fold) if f != k]
                test_idx = [i for i, f in enumerate(fold) if f == k]
                per_fold.append(fold_rmse(cols, feats, cats, y, train_idx, test_idx, lam))
            cv = math.fsum(per_fold) / len(per_fold)
            scores.append((cv, lam))
            lines.append("%s,%r,%.8f" % (fs, lam, cv))
        low = min(s for s, _ in scores)
        best[fs] = next(lam for s, lam in scores if s == low)
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(dst, "table.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(dst, "best.json"), "w") as f:
        json.dump(best, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
