"""The grader's own implementation of METHODS.md, by another numerical route.

The solution solves the normal equations (XcᵀXc + nλI)w = Xcᵀyc by Cholesky. Here each training
design is decomposed once by a one-sided Jacobi SVD (Hestenes: columns orthogonalised by plane
rotations, XᵀX never formed) and every penalty reuses it: w = V·diag(s/(s² + nλ))·Uᵀ·yc. The data
are held column-wise, preprocessing statistics are computed with math.fsum and statistics.median.
The variants (leakage, row folds, penalised intercept, mean of fold RMSEs) are switches of `curve`.
"""
import csv
import functools
import gzip
import io
import json
import math
import os
import statistics
from operator import mul

NA_TOKENS = ("", "na", "n/a", "nan", "null", "?", ".")


def load_text(path):
    blob = open(path, "rb").read()
    if blob.startswith(b"\x1f\x8b"):
        blob = gzip.GzipFile(fileobj=io.BytesIO(blob)).read()
    return blob.decode("utf-8-sig")


def columns(path):
    text = load_text(path)
    first = text.split("\n", 1)[0]
    sep = ";" if first.count(";") > first.count(",") else ","
    recs = [r for r in csv.reader(io.StringIO(text), delimiter=sep) if any(c.strip() for c in r)]
    head = [h.strip() for h in recs[0]]
    body = recs[1:]
    return {h: [(r[j] if j < len(r) else "").strip() for r in body] for j, h in enumerate(head)}


# na and num see the same few cell strings again for every fold, variant and setting of a study:
# they are pure, so their answers are kept (the same floats, parsed once).
@functools.cache
def na(cell):
    return cell.strip().lower() in NA_TOKENS


@functools.cache
def num(cell):
    return None if na(cell) else float(cell.replace(",", "."))


def grid(spec):
    lo, hi, m = float(spec["min"]), float(spec["max"]), int(spec["count"])
    if m == 1:
        return [lo]
    return [lo * (hi / lo) ** (j / (m - 1)) for j in range(m)]


def design(cols, feats, cats, fit_idx, use_idx):
    """Design columns over use_idx with statistics taken from fit_idx (no all-zero columns)."""
    out = []
    for f in feats:
        cells = cols[f]
        if f in cats:
            lv = [cells[i] for i in fit_idx if not na(cells[i])]
            if not lv:
                continue
            tally = {}
            for v in lv:
                tally[v] = tally.get(v, 0) + 1
            top = max(tally.values())
            ref = sorted(v for v in tally if tally[v] == top)[0]
            for level in sorted(tally):
                if level != ref:
                    out.append([1.0 if cells[i] == level else 0.0 for i in use_idx])
            continue
        seen = [num(cells[i]) for i in fit_idx if not na(cells[i])]
        med = statistics.median(seen) if seen else 0.0
        vals = [med if na(cells[i]) else num(cells[i]) for i in fit_idx]
        mu = math.fsum(vals) / len(vals)
        sig = math.sqrt(math.fsum((v - mu) ** 2 for v in vals) / len(vals))
        if sig > 0:
            out.append([((med if na(cells[i]) else num(cells[i])) - mu) / sig for i in use_idx])
    return out


def dot(x, y):
    """fsum of the products x[i] * y[i]: exactly rounded, so the same float in any order."""
    return math.fsum(map(mul, x, y))


def jacobi_svd(cols_x):
    """One-sided Jacobi on the columns of X (list of columns). Returns (U columns, s, V rows)."""
    a = [c[:] for c in cols_x]
    p = len(a)
    v = [[1.0 if i == j else 0.0 for j in range(p)] for i in range(p)]
    # squared column norms, kept until a rotation changes the column (the same fsum of the same
    # column, computed once instead of once per pair)
    norm2 = [None] * p
    for _ in range(60):
        rotated = False
        for i in range(p):
            for j in range(i + 1, p):
                if norm2[i] is None:
                    norm2[i] = dot(a[i], a[i])
                if norm2[j] is None:
                    norm2[j] = dot(a[j], a[j])
                al, be = norm2[i], norm2[j]
                ga = dot(a[i], a[j])
                if ga == 0 or abs(ga) <= 1e-15 * math.sqrt(al * be):
                    continue
                rotated = True
                zeta = (be - al) / (2 * ga)
                t = math.copysign(1.0, zeta) / (abs(zeta) + math.sqrt(1 + zeta * zeta))
                c = 1 / math.sqrt(1 + t * t)
                s = c * t
                ai, aj = a[i], a[j]
                a[i] = [c * x - s * y for x, y in zip(ai, aj)]
                a[j] = [s * x + c * y for x, y in zip(ai, aj)]
                norm2[i] = norm2[j] = None
                for r in range(p):
                    vi, vj = v[r][i], v[r][j]
                    v[r][i] = c * vi - s * vj
                    v[r][j] = s * vi + c * vj
        if not rotated:
            break
    sv = [math.sqrt(math.fsum(x * x for x in col)) for col in a]
    u = [[x / s for x in col] if s > 0 else [0.0] * len(col) for col, s in zip(a, sv)]
    return u, sv, v


def curve(cols, meta, outcome, feats, leak=False, by_row=False, pen_icpt=False, mean_folds=False):
    """[(lambda, cv_rmse, se)] and the row count, METHODS.md sections 2-6 (or a variant)."""
    k = int(meta["folds"])
    subj = cols[meta["subject"]]
    total = len(subj)
    if by_row:
        fold_all = [i % k for i in range(total)]
    else:
        order = sorted(set(subj))
        pos = {s: order.index(s) % k for s in order}
        fold_all = [pos[s] for s in subj]
    yy = cols[outcome]
    idx = [i for i in range(total) if not na(yy[i])]
    y = {i: num(yy[i]) for i in idx}
    cats = set(meta.get("categorical", []))
    lams = grid(meta["lambda_grid"])
    sse = [0.0] * len(lams)
    fold_r = [[] for _ in lams]
    for f in range(k):
        tr = [i for i in idx if fold_all[i] != f]
        te = [i for i in idx if fold_all[i] == f]
        if not te:
            continue
        fit_on = idx if leak else tr
        X = design(cols, feats, cats, fit_on, tr + te)
        n = len(tr)
        if pen_icpt:
            X = [[1.0] * (n + len(te))] + X
            xm = [0.0] * len(X)
            ym = 0.0
        else:
            xm = [math.fsum(c[:n]) / n for c in X]
            ym = math.fsum(y[i] for i in tr) / n
        xc = [[v - m for v in c[:n]] for c, m in zip(X, xm)]
        yc = [y[i] - ym for i in tr]
        u, sv, vr = jacobi_svd(xc)
        uty = [dot(uc, yc) for uc in u]
        # the centred test rows X[q][n + t] - xm[q], the same for every penalty
        test = [[X[q][n + t] - xm[q] for q in range(len(X))] for t in range(len(te))]
        for li, lam in enumerate(lams):
            shrink = [s * t / (s * s + n * lam) if s > 0 else 0.0 for s, t in zip(sv, uty)]
            w = [dot(vr[r], shrink) for r in range(len(sv))]
            errs = []
            for t, i in enumerate(te):
                pred = ym + dot(w, test[t])
                errs.append((y[i] - pred) ** 2)
            sum_errs = math.fsum(errs)
            sse[li] += sum_errs
            fold_r[li].append(math.sqrt(sum_errs / len(errs)))
    out = []
    for li, lam in enumerate(lams):
        rs = fold_r[li]
        se = statistics.stdev(rs) / math.sqrt(len(rs)) if len(rs) > 1 else 0.0
        cv = statistics.fmean(rs) if mean_folds else math.sqrt(sse[li] / len(idx))
        out.append((lam, cv, se))
    return out, len(idx)


def pick(cv_curve):
    """(lambda_min, lambda_1se, cv_rmse at lambda_1se)."""
    low = min(c for _, c, _ in cv_curve)
    lmin_pt = max((p for p in cv_curve if p[1] == low), key=lambda p: p[0])
    bar = lmin_pt[1] + lmin_pt[2]
    one = [p for p in cv_curve if p[1] <= bar][-1]
    return lmin_pt[0], one[0], one[1]


VARIANTS = [("LEAKAGE", {"leak": True}), ("GROUPS_SPLIT", {"by_row": True}),
            ("INTERCEPT_PENALISED", {"pen_icpt": True}), ("RMSE_PER_FOLD", {"mean_folds": True})]


_STUDIES = {}


def study(folder, variant=None):
    """{(outcome, feature_set): (n, curve, (lambda_min, lambda_1se, cv_rmse))}.

    A hidden audit case asks for the same study and variants twice (gen.plant_claims, then
    audit_expected), so answers are kept, keyed by the variant and the bytes of the study's two
    files: a folder whose files changed is computed afresh. Callers only read what they get."""
    with open(os.path.join(folder, "study.json"), "rb") as f:
        meta_bytes = f.read()
    meta = json.loads(meta_bytes)
    with open(os.path.join(folder, meta["data"]), "rb") as f:
        data_bytes = f.read()
    key = (os.path.abspath(folder), tuple(sorted((variant or {}).items())), meta_bytes, data_bytes)
    if key not in _STUDIES:
        _STUDIES[key] = _study(folder, meta, variant)
    return _STUDIES[key]


def _study(folder, meta, variant):
    cols = columns(os.path.join(folder, meta["data"]))
    res = {}
    for oc in meta["outcomes"]:
        for fs in meta["feature_sets"]:
            cc, n = curve(cols, meta, oc, fs["features"], **(variant or {}))
            res[(oc, fs["name"])] = (n, cc, pick(cc))
    return res


def rel_close(a, b, tol=1e-6):
    return abs(a - b) <= tol * max(abs(b), 1e-12)


def audit_expected(folder, claims):
    """claims: [(outcome, feature_set, lambda, cv_rmse)] -> {(outcome, fs): (reason, lambda, cv)}."""
    base = study(folder)
    cache = {}
    found = {}
    for oc, fs, lam, cv in claims:
        _, cc, (_, l1, c1) = base[(oc, fs)]
        if rel_close(lam, l1) and rel_close(cv, c1):
            continue
        why = None
        for code, opts in VARIANTS:
            if code not in cache:
                cache[code] = study(folder, opts)
            _, _, (_, vl, vc) = cache[code][(oc, fs)]
            if rel_close(lam, vl) and rel_close(cv, vc):
                why = code
                break
        if why is None:
            hit = [p for p in cc if rel_close(lam, p[0])]
            why = "WRONG_LAMBDA" if hit and not rel_close(lam, l1) and rel_close(cv, hit[0][1]) else "RMSE_MISMATCH"
        found[(oc, fs)] = (why, l1, c1)
    return found
