"""The study run: every outcome and feature set, written as cv.csv and table.csv."""
import os

from .cv import cross_validate
from .reader import read_table
from .select import lambda_1se, lambda_min
from .study import Study


def fmt(x):
    return repr(float(x))


def analyse(study, rows):
    """{(outcome, feature_set): (n, curve, lambda_min point, lambda_1se point)} in study order."""
    out = {}
    for outcome in study.outcomes:
        for name, features in study.feature_sets:
            curve, n = cross_validate(study, rows, outcome, features)
            out[(outcome, name)] = (n, curve, lambda_min(curve), lambda_1se(curve))
    return out


def run_study(folder, out_dir):
    study = Study(folder)
    rows = read_table(study.data)
    res = analyse(study, rows)
    os.makedirs(out_dir, exist_ok=True)
    cv_lines = ["outcome,feature_set,lambda,cv_rmse,se"]
    tab_lines = ["outcome,feature_set,n,lambda_min,lambda_1se,cv_rmse"]
    for (outcome, name), (n, curve, lo, one) in res.items():
        for lam, cv, se in curve:
            cv_lines.append(",".join([outcome, name, fmt(lam), fmt(cv), fmt(se)]))
        tab_lines.append(",".join([outcome, name, str(n), fmt(lo[0]), fmt(one[0]), fmt(one[1])]))
    with open(os.path.join(out_dir, "cv.csv"), "w") as f:
        f.write("\n".join(cv_lines) + "\n")
    with open(os.path.join(out_dir, "table.csv"), "w") as f:
        f.write("\n".join(tab_lines) + "\n")
