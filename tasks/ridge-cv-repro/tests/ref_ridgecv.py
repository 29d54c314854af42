#!/usr/bin/env python3
"""Reproduce the ridge-regression CV table: per-fold imputation, standardisation, one-hot,
centring, closed-form ridge, mean fold RMSE, best lambda."""
import csv, gzip, io, json, math, os, sys

MISSING = {"", "na", "nan", "null", "?"}


def load(path):
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    text = data.decode("utf-8-sig")
    first = text.splitlines()[0]
    delim = ";" if first.count(";") > first.count(",") else ","
    return list(csv.DictReader(io.StringIO(text), delimiter=delim))


def num(s):
    s = (s or "").strip()
    return None if s.lower() in MISSING else float(s)


def solve(A, b):
    n = len(A)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c] / M[c][c]
                for k in range(c, n + 1):
                    M[r][k] -= f * M[c][k]
    return [M[i][n] / M[i][i] for i in range(n)]


def design(rows, feats, cats, train):
    """Column builders fitted on `train`; returns a function mapping a row to its centred vector."""
    cols = []
    for f in feats:
        if f in cats:
            levels = sorted({(r[f] or "").strip() for r in train if (r[f] or "").strip().lower() not in MISSING})
            for lv in levels:
                cols.append(("cat", f, lv))
        else:
            vals = [num(r[f]) for r in train]
            ok = [v for v in vals if v is not None]
            mean = sum(ok) / len(ok)
            imp = [mean if v is None else v for v in vals]
            sd = math.sqrt(sum((v - mean) ** 2 for v in imp) / len(imp))
            cols.append(("num", f, (mean, sd)))

    def raw(r):
        out = []
        for kind, f, p in cols:
            if kind == "cat":
                out.append(1.0 if (r[f] or "").strip() == p else 0.0)
            else:
                v = num(r[f])
                v = p[0] if v is None else v
                out.append(0.0 if p[1] == 0 else (v - p[0]) / p[1])
        return out

    Xtr = [raw(r) for r in train]
    centre = [sum(col) / len(Xtr) for col in zip(*Xtr)] if cols else []
    return lambda r: [a - c for a, c in zip(raw(r), centre)]


def main():
    src, out = sys.argv[1], sys.argv[2]
    cfg = json.load(open(os.path.join(src, "config.json")))
    rows = load(os.path.join(src, cfg["data"]))
    tgt, fc = cfg["target"], cfg["fold_column"]
    rows = [r for r in rows if num(r[tgt]) is not None]
    cats = set(cfg.get("categorical", []))
    folds = sorted({r[fc].strip() for r in rows})
    table, best = [], {}
    for name in sorted(cfg["feature_sets"]):
        feats = cfg["feature_sets"][name]
        for lam in cfg["lambdas"]:
            rmses = []
            for k in folds:
                train = [r for r in rows if r[fc].strip() != k]
                test = [r for r in rows if r[fc].strip() == k]
                f = design(rows, feats, cats, train)
                X = [f(r) for r in train]
                y = [num(r[tgt]) for r in train]
                ybar = sum(y) / len(y)
                d, n = len(X[0]), len(X)
                A = [[sum(X[i][a] * X[i][b] for i in range(n)) + (n * lam if a == b else 0.0) for b in range(d)] for a in range(d)]
                rhs = [sum(X[i][a] * (y[i] - ybar) for i in range(n)) for a in range(d)]
                w = solve(A, rhs)
                se = [(num(r[tgt]) - ybar - sum(a * b for a, b in zip(f(r), w))) ** 2 for r in test]
                rmses.append(math.sqrt(sum(se) / len(se)))
            cv = sum(rmses) / len(rmses)
            table.append((name, lam, cv))
            if name not in best or cv < best[name][1]:
                best[name] = (lam, cv)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "table.csv"), "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["feature_set", "lambda", "cv_rmse"])
        for name, lam, cv in table:
            w.writerow([name, repr(lam), "%.8f" % cv])
    json.dump({k: v[0] for k, v in best.items()}, open(os.path.join(out, "best.json"), "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
