"""K-fold cross-validation by subject for one outcome and one feature set over the penalty grid."""
import math

from .folds import assign_folds, row_folds
from .prep import Preprocessor
from .reader import parse_number
from .ridge import NormalEquations


class Variant:
    """The protocol (all False) or one of the mistakes the audit recognises."""

    def __init__(self, leakage=False, groups_split=False, intercept_penalised=False, rmse_per_fold=False):
        self.leakage = leakage
        self.groups_split = groups_split
        self.intercept_penalised = intercept_penalised
        self.rmse_per_fold = rmse_per_fold


PROTOCOL = Variant()


def cross_validate(study, rows, outcome, features, variant=PROTOCOL):
    """[(lambda, cv_rmse, se)] over the grid, plus the number of rows used."""
    # folds come from every row of the release, before rows with a missing outcome are dropped
    if variant.groups_split:
        fold = row_folds(rows, study.folds)
    else:
        fold = assign_folds(rows, study.subject, study.folds)
    keep = [i for i, r in enumerate(rows) if parse_number(r[outcome]) is not None]
    data = [rows[i] for i in keep]
    fold = [fold[i] for i in keep]
    y = [parse_number(r[outcome]) for r in data]
    designs = []
    leak = Preprocessor(features, study.categorical, data) if variant.leakage else None
    for k in range(study.folds):
        tr = [i for i in range(len(data)) if fold[i] != k]
        te = [i for i in range(len(data)) if fold[i] == k]
        if not te:
            continue
        prep = leak or Preprocessor(features, study.categorical, [data[i] for i in tr])
        designs.append((prep.transform([data[i] for i in tr]), [y[i] for i in tr],
                        prep.transform([data[i] for i in te]), [y[i] for i in te]))
    # each fold's normal equations and centred test rows do not depend on the penalty
    systems = []
    for xtr, ytr, xte, yte in designs:
        eq = NormalEquations(xtr, ytr, penalise_intercept=variant.intercept_penalised)
        systems.append((eq, eq.centre(xte), yte))
    result = []
    for lam in study.grid:
        sse, count, per_fold = 0.0, 0, []
        for eq, xte, yte in systems:
            err = [(a - b) ** 2 for a, b in zip(yte, eq.predict(eq.weights(lam), xte))]
            sse += sum(err)
            count += len(err)
            per_fold.append(math.sqrt(sum(err) / len(err)))
        kk = len(per_fold)
        mean_fold = sum(per_fold) / kk
        sd = math.sqrt(sum((r - mean_fold) ** 2 for r in per_fold) / (kk - 1)) if kk > 1 else 0.0
        cv = mean_fold if variant.rmse_per_fold else math.sqrt(sse / count)
        result.append((lam, cv, sd / math.sqrt(kk)))
    return result, len(data)
