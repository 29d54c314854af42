"""Ranking metrics for binary datasets: AUROC (ties count one half) and step-wise average precision."""

MISSING_SCORE = 0.5


def scored(gold, preds, positive):
    """[(probability of the positive class, is_positive)] over every gold id."""
    out = []
    for i, g in gold:
        p = preds[i][1] if i in preds else MISSING_SCORE
        out.append((p, g == positive))
    return out


def auroc(items):
    """Mann-Whitney: rank-sum with mid-ranks for tied scores."""
    items = sorted(items, key=lambda t: t[0])
    npos = sum(1 for _, y in items if y)
    nneg = len(items) - npos
    if npos == 0 or nneg == 0:
        return None
    rank_sum, k = 0.0, 0
    while k < len(items):
        j = k
        while j < len(items) and items[j][0] == items[k][0]:
            j += 1
        mid = (k + 1 + j) / 2.0
        rank_sum += mid * sum(1 for t in items[k:j] if t[1])
        k = j
    return (rank_sum - npos * (npos + 1) / 2.0) / (npos * nneg)


def average_precision(items):
    """Sum over distinct thresholds (descending) of (R_k - R_k-1) * P_k; tied scores are one threshold."""
    items = sorted(items, key=lambda t: -t[0])
    npos = sum(1 for _, y in items if y)
    if npos == 0:
        return None
    ap, tp, seen, prev_recall, k = 0.0, 0, 0, 0.0, 0
    while k < len(items):
        j = k
        while j < len(items) and items[j][0] == items[k][0]:
            j += 1
        tp += sum(1 for t in items[k:j] if t[1])
        seen += j - k
        recall = tp / npos
        ap += (recall - prev_recall) * (tp / seen)
        prev_recall = recall
        k = j
    return ap
