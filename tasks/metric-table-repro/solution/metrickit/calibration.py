"""Expected calibration error of the positive-class probability, ten equal-width bins."""

BINS = 10


def bin_of(p):
    """[0, 0.1) -> 0, ..., [0.9, 1.0] -> 9: a probability of exactly 1 joins the last bin."""
    b = int(p * BINS)
    if b >= BINS:
        b = BINS - 1
    # p * 10 can land just below an edge (0.3 * 10 is fine, but guard anyway).
    if b + 1 < BINS and p >= (b + 1) / BINS:
        b += 1
    return b


def ece(items):
    bins = {}
    for p, y in items:
        bins.setdefault(bin_of(p), []).append((p, 1.0 if y else 0.0))
    n = len(items)
    total = 0.0
    for members in bins.values():
        conf = sum(p for p, _ in members) / len(members)
        freq = sum(y for _, y in members) / len(members)
        total += len(members) / n * abs(freq - conf)
    return total
