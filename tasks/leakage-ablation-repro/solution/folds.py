"""Fold assignment: group k-fold as PROTOCOL.md section 2 defines it."""


def group_kfold(groups, k):
    """Fold index of each row: the j-th subject in order of first appearance goes to fold j mod k."""
    order = {}
    for g in groups:
        if g not in order:
            order[g] = len(order)
    return [order[g] % k for g in groups]


def fold_members(fold_of, k):
    """Row indices of each fold, in row order."""
    out = [[] for _ in range(k)]
    for i, f in enumerate(fold_of):
        out[f].append(i)
    return out
