"""Expected calibration error of the positive-class probability, ten equal-width bins."""

BINS = 10


def bin_of(p):
    """The bin of a probability: [0, 0.1) -> 0, [0.1, 0.2) -> 1, ..."""
    return int(p * BINS)


def ece(items):
    bins = {}
    for p, y in items:
        bins.setdefault(bin_of(p), []).append((p, 1.0 if y else 0.0))
    n = len(items)
    total = 0.0
    for b in range(BINS):
        members = bins.get(b)
        if not members:
            continue
        conf = sum(p for p, _ in members) / len(members)
        freq = sum(y for _, y in members) / len(members)
        total += len(members) / n * abs(freq - conf)
    return total
