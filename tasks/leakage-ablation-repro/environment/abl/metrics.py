"""Classification metrics over pooled out-of-fold predictions."""


def accuracy(gold, pred):
    return sum(g == p for g, p in zip(gold, pred)) / len(gold)


def macro_f1(gold, pred):
    classes = sorted(set(gold))
    total = 0.0
    for c in classes:
        tp = sum(g == c and p == c for g, p in zip(gold, pred))
        fp = sum(g != c and p == c for g, p in zip(gold, pred))
        fn = sum(g == c and p != c for g, p in zip(gold, pred))
        den = 2 * tp + fp + fn
        total += (2 * tp / den) if den else 0.0
    return total / len(classes)
