"""Fold assignment for k-fold cross-validation."""


def kfold(n, k):
    """Fold index of each of n rows: rows are dealt to the k folds in turn."""
    return [i % k for i in range(n)]


def fold_members(fold_of, k):
    """Row indices of each fold, in row order."""
    out = [[] for _ in range(k)]
    for i, f in enumerate(fold_of):
        out[f].append(i)
    return out
