"""Label metrics over all gold examples; a missing prediction is wrong and belongs to no class."""


def aligned(gold, preds):
    """[(gold_label, predicted_label or None)] for every gold id (gold ids are unique)."""
    return [(g, preds[i][0] if i in preds else None) for i, g in gold]


def accuracy(pairs):
    return sum(1 for g, p in pairs if p == g) / len(pairs)


def per_class_f1(pairs, classes):
    res = {}
    for c in classes:
        tp = sum(1 for g, p in pairs if g == c and p == c)
        fp = sum(1 for g, p in pairs if g != c and p == c)
        fn = sum(1 for g, p in pairs if g == c and p != c)
        res[c] = 0.0 if tp == 0 else 2.0 * tp / (2 * tp + fp + fn)
    return res


def gold_classes(pairs):
    return sorted({g for g, _ in pairs})


def macro_f1(pairs):
    f = per_class_f1(pairs, gold_classes(pairs))
    return sum(f.values()) / len(f)


def weighted_f1(pairs):
    f = per_class_f1(pairs, gold_classes(pairs))
    support = {}
    for g, _ in pairs:
        support[g] = support.get(g, 0) + 1
    return sum(support[c] * f[c] for c in f) / len(pairs)
