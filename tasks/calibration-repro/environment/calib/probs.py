"""Softmax, log-softmax and predictions at a temperature (SPEC.md section 2)."""
import math


def softmax(z, t=1.0):
    e = [math.exp(x / t) for x in z]
    s = sum(e)
    return [x / s for x in e]


def log_softmax(z, t=1.0):
    m = max(z)
    sh = [(x - m) / t for x in z]
    lse = math.log(sum(math.exp(x) for x in sh))
    return [x - lse for x in sh]


def predict(p):
    best = 0
    for k in range(1, len(p)):
        if p[k] >= p[best]:
            best = k
    return best


def probabilities(rows, t=1.0):
    return [softmax(z, t) for z in rows.logits]
