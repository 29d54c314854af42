"""One ablation configuration, cross-validated: preprocessing, selection, model, pooled metrics."""
from . import folds, metrics, models, prep, select


def make_model(cfg):
    if cfg["model"] == "knn":
        return models.KNN(int(cfg["k"]))
    if cfg["model"] == "gnb":
        return models.GaussianNB()
    raise ValueError("unknown model %r" % cfg["model"])


def prepare(table, cfg):
    """The design matrix the models see: imputed, selected and (optionally) standardised."""
    X = prep.MeanImputer().fit(table.X).transform(table.X)
    if cfg.get("select"):
        cols = select.top_features(X, table.labels, int(cfg["select"]))
        X = select.take(X, cols)
    if cfg.get("scale"):
        X = prep.Standardizer().fit(X).transform(X)
    return X


def cross_validate(table, cfg, k):
    """Pooled out-of-fold predictions of one configuration, in row order."""
    X = prepare(table, cfg)
    fold_of = folds.kfold(len(table), k)
    pred = [None] * len(table)
    for members in folds.fold_members(fold_of, k):
        test = set(members)
        train = [i for i in range(len(table)) if i not in test]
        model = make_model(cfg).fit([X[i] for i in train], [table.labels[i] for i in train])
        for i, p in zip(members, model.predict([X[i] for i in members])):
            pred[i] = p
    return pred


def evaluate(table, cfg, k):
    pred = cross_validate(table, cfg, k)
    return {
        "accuracy": metrics.accuracy(table.labels, pred),
        "macro_f1": metrics.macro_f1(table.labels, pred),
    }
