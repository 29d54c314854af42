"""K-fold cross-validation by subject for one outcome and one feature set over the penalty grid."""
import math

from .folds import assign_folds
from .prep import Preprocessor
from .reader import parse_number
from .ridge import RidgeFit


def cross_validate(study, rows, outcome, features):
    """[(lambda, cv_rmse, se)] over the grid, plus the number of rows used."""
    data = [r for r in rows if parse_number(r[outcome]) is not None]
    fold = assign_folds(data, study.subject, study.folds)
    y = [parse_number(r[outcome]) for r in data]
    # one preprocessor for the whole analysis keeps the design columns identical across folds
    prep = Preprocessor(features, study.categorical, data)
    designs = []
    for k in range(study.folds):
        tr = [i for i in range(len(data)) if fold[i] != k]
        te = [i for i in range(len(data)) if fold[i] == k]
        if not te:
            continue
        designs.append((prep.transform([data[i] for i in tr]), [y[i] for i in tr],
                        prep.transform([data[i] for i in te]), [y[i] for i in te]))
    result = []
    for lam in study.grid:
        per_fold = []
        for xtr, ytr, xte, yte in designs:
            fit = RidgeFit(xtr, ytr, lam)
            err = [(a - b) ** 2 for a, b in zip(yte, fit.predict(xte))]
            per_fold.append(math.sqrt(sum(err) / len(err)))
        kk = len(per_fold)
        mean_fold = sum(per_fold) / kk
        sd = math.sqrt(sum((r - mean_fold) ** 2 for r in per_fold) / (kk - 1)) if kk > 1 else 0.0
        result.append((lam, mean_fold, sd / math.sqrt(kk)))
    return result, len(data)
