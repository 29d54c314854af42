"""Auditing released result claims against the protocol (METHODS.md section 9)."""
from .cv import PROTOCOL, Variant
from .reader import parse_number, read_table
from .report import analyse, fmt
from .study import Study

TOL = 1e-6
CODES = [
    ("LEAKAGE", Variant(leakage=True)),
    ("GROUPS_SPLIT", Variant(groups_split=True)),
    ("INTERCEPT_PENALISED", Variant(intercept_penalised=True)),
    ("RMSE_PER_FOLD", Variant(rmse_per_fold=True)),
]


def close(a, b):
    return abs(a - b) <= TOL * max(abs(b), 1e-12)


def audit(folder, claims_path, out_path):
    study = Study(folder)
    rows = read_table(study.data)
    right = analyse(study, rows, PROTOCOL)
    variants = {}
    lines = ["outcome,feature_set,reason,lambda,cv_rmse"]
    for claim in read_table(claims_path):
        key = (claim["outcome"], claim["feature_set"])
        lam, cv = parse_number(claim["lambda"]), parse_number(claim["cv_rmse"])
        n, curve, lo, one = right[key]
        if close(lam, one[0]) and close(cv, one[1]):
            continue
        reason = None
        for code, variant in CODES:
            if code not in variants:
                variants[code] = analyse(study, rows, variant)
            vone = variants[code][key][3]
            if close(lam, vone[0]) and close(cv, vone[1]):
                reason = code
                break
        if reason is None:
            on_grid = [p for p in curve if close(lam, p[0])]
            if on_grid and not close(lam, one[0]) and close(cv, on_grid[0][1]):
                reason = "WRONG_LAMBDA"
            else:
                reason = "RMSE_MISMATCH"
        lines.append(",".join([key[0], key[1], reason, fmt(one[0]), fmt(one[1])]))
    with open(out_path, "w") as f:
        f.write("\n".join(lines) + "\n")
