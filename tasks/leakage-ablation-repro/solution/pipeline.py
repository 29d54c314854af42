"""One ablation configuration, cross-validated: every statistic is fitted on the training fold."""
from . import folds, metrics, models, prep, select


def make_model(cfg):
    if cfg["model"] == "knn":
        return models.KNN(int(cfg["k"]))
    if cfg["model"] == "gnb":
        return models.GaussianNB()
    raise ValueError("unknown model %r" % cfg["model"])


def fold_design(table, cfg, train, test):
    """Training and test matrices of one fold: imputer, selection and scaler fitted on train only."""
    Xtr = [table.X[i] for i in train]
    Xte = [table.X[i] for i in test]
    ytr = [table.labels[i] for i in train]
    imputer = prep.MeanImputer().fit(Xtr)
    Xtr, Xte = imputer.transform(Xtr), imputer.transform(Xte)
    if cfg.get("select"):
        cols = select.top_features(Xtr, ytr, int(cfg["select"]))
        Xtr, Xte = select.take(Xtr, cols), select.take(Xte, cols)
    if cfg.get("scale"):
        scaler = prep.Standardizer().fit(Xtr)
        Xtr, Xte = scaler.transform(Xtr), scaler.transform(Xte)
    return Xtr, Xte, ytr


def cross_validate(table, cfg, k):
    """Pooled out-of-fold predictions of one configuration, in row order."""
    fold_of = folds.group_kfold(table.groups, k)
    pred = [None] * len(table)
    for members in folds.fold_members(fold_of, k):
        if not members:
            continue
        test = set(members)
        train = [i for i in range(len(table)) if i not in test]
        Xtr, Xte, ytr = fold_design(table, cfg, train, members)
        model = make_model(cfg).fit(Xtr, ytr)
        for i, p in zip(members, model.predict(Xte)):
            pred[i] = p
    return pred


def evaluate(table, cfg, k):
    pred = cross_validate(table, cfg, k)
    return {
        "accuracy": metrics.accuracy(table.labels, pred),
        "macro_f1": metrics.macro_f1(table.labels, pred),
    }
