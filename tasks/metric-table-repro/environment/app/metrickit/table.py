"""Builds and writes the results table."""
import csv

from . import calibration, classify, ranking, significance

COLUMNS = ["dataset", "model", "n", "accuracy", "macro_f1", "weighted_f1", "auroc", "ap", "ece", "mcnemar_p"]


def compute(datasets):
    """[{column: raw value}] in datasets.json order, then model name ascending."""
    rows = []
    for ds in datasets:
        if ds.baseline not in ds.models:
            raise ValueError("%s: baseline %s has no prediction file" % (ds.name, ds.baseline))
        base_pairs = classify.aligned(ds.gold, ds.models[ds.baseline])
        for model in sorted(ds.models):
            preds = ds.models[model]
            pairs = classify.aligned(ds.gold, preds)
            row = {"dataset": ds.name, "model": model, "n": len(pairs),
                   "accuracy": classify.accuracy(pairs), "macro_f1": classify.macro_f1(pairs),
                   "weighted_f1": classify.weighted_f1(pairs), "auroc": None, "ap": None, "ece": None,
                   "mcnemar_p": None}
            if ds.task == "binary":
                items = ranking.scored(ds.gold, preds, ds.positive)
                row["auroc"] = ranking.auroc(items)
                row["ap"] = ranking.average_precision(items)
                row["ece"] = calibration.ece(items)
            if model != ds.baseline:
                row["mcnemar_p"] = significance.mcnemar_exact(*significance.discordant(base_pairs, pairs))
            rows.append(row)
    return rows


def fmt(column, value):
    if value is None:
        return ""
    if column == "n":
        return str(value)
    if column == "mcnemar_p":
        return "%.6g" % value
    if column in ("dataset", "model"):
        return value
    return "%.6f" % value


def write(rows, path):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in rows:
            w.writerow([fmt(c, r[c]) for c in COLUMNS])
