"""Calibration metrics (SPEC.md sections 4-8)."""
from . import binning, probs


def _binned_error(values, hits, bins):
    e = binning.edges(bins)
    n_b = [0] * (bins + 1)
    s_v = [0.0] * (bins + 1)
    s_h = [0.0] * (bins + 1)
    for v, h in zip(values, hits):
        b = binning.width_bin(v, e)
        n_b[b] += 1
        s_v[b] += v
        s_h[b] += h
    n = len(values)
    total = 0.0
    for b in range(1, bins + 1):
        if n_b[b]:
            total += n_b[b] / n * abs(s_h[b] / n_b[b] - s_v[b] / n_b[b])
    return total, n_b, s_v, s_h


def evaluate(rows, bins=15, t=1.0):
    p = probs.probabilities(rows, t)
    n, k = len(rows.labels), rows.classes
    pred = [probs.predict(q) for q in p]
    conf = [q[j] for q, j in zip(p, pred)]
    correct = [1.0 if j == y else 0.0 for j, y in zip(pred, rows.labels)]
    ece, n_b, s_v, s_h = _binned_error(conf, correct, bins)
    order = sorted(range(n), key=lambda i: conf[i])
    ace = 0.0
    for lo, hi in binning.mass_bins(n, bins):
        idx = order[lo:hi]
        m = len(idx)
        ace += m / n * abs(sum(correct[i] for i in idx) / m - sum(conf[i] for i in idx) / m)
    cw = 0.0
    for c in range(k):
        err, _, _, _ = _binned_error([q[c] for q in p], [1.0 if y == c else 0.0 for y in rows.labels], bins)
        cw += err
    cw /= k
    nll = -sum(probs.log_softmax(z, t)[y] for z, y in zip(rows.logits, rows.labels)) / n
    brier = sum(sum((q[c] - (1.0 if y == c else 0.0)) ** 2 for c in range(k)) for q, y in zip(p, rows.labels)) / n
    e = binning.edges(bins)
    rel = []
    for b in range(1, bins + 1):
        rel.append({"bin": b, "lower": e[b - 1], "upper": e[b], "count": n_b[b],
                    "accuracy": s_h[b] / n_b[b] if n_b[b] else None,
                    "confidence": s_v[b] / n_b[b] if n_b[b] else None})
    return {"n": n, "classes": k, "bins": bins, "temperature": t, "accuracy": sum(correct) / n,
            "ece": ece, "ace": ace, "cwece": cw, "nll": nll, "brier": brier, "reliability": rel}


def nll(rows, t):
    return -sum(probs.log_softmax(z, t)[y] for z, y in zip(rows.logits, rows.labels)) / len(rows.labels)


def single(rows, metric, bins, t):
    return evaluate(rows, bins, t)[metric]
