"""0.5 m/s bins centred on multiples of 0.5, the minimum count and the gap rule (SPEC.md section 6)."""
import math

WIDTH = 0.5
MIN_COUNT = 3


def bin_of(v):
    return int(math.floor(v / WIDTH + 0.5))


def bin_means(recs, key="wsn"):
    """{bin: (n, mean speed, mean power)} over bins >= 1."""
    acc = {}
    for r in recs:
        k = bin_of(r[key])
        if k < 1:
            continue
        a = acc.setdefault(k, [0, 0.0, 0.0])
        a[0] += 1
        a[1] += r[key]
        a[2] += r["power"]
    return {k: (a[0], a[1] / a[0], a[2] / a[0]) for k, a in acc.items()}


def measured_curve(recs):
    """List of dicts bin, n, ws, power, filled."""
    means = bin_means(recs)
    valid = sorted(k for k, v in means.items() if v[0] >= MIN_COUNT)
    if not valid:
        return []
    curve = []
    k = valid[0]
    top = valid[-1]
    while k <= top:
        if k in valid:
            n, ws, p = means[k]
            curve.append({"bin": k, "n": n, "ws": ws, "power": p, "filled": 0})
            k += 1
            continue
        if k + 1 in valid:
            lo = curve[-1]
            n1, ws1, p1 = means[k + 1]
            curve.append({"bin": k, "n": 0, "ws": (lo["ws"] + ws1) / 2.0, "power": (lo["power"] + p1) / 2.0, "filled": 1})
            k += 1
            continue
        break
    return curve
