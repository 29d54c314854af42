"""Univariate feature selection by the one-way ANOVA F statistic."""


def anova_f(column, labels):
    n = len(column)
    classes = sorted(set(labels))
    grand = sum(column) / n
    between = within = 0.0
    for c in classes:
        vals = [v for v, y in zip(column, labels) if y == c]
        m = sum(vals) / len(vals)
        between += len(vals) * (m - grand) ** 2
        within += sum((v - m) ** 2 for v in vals)
    dfb, dfw = len(classes) - 1, n - len(classes)
    if dfb <= 0:
        return 0.0
    if within == 0 or dfw <= 0:
        return float("inf") if between > 0 else 0.0
    return (between / dfb) / (within / dfw)


def top_features(X, labels, m):
    """Indices of the m columns with the largest F (ties: leftmost first), in column order."""
    p = len(X[0])
    scores = [anova_f([row[j] for row in X], labels) for j in range(p)]
    order = sorted(range(p), key=lambda j: (-scores[j], j))
    return sorted(order[:m])


def take(X, cols):
    return [[row[j] for j in cols] for row in X]
