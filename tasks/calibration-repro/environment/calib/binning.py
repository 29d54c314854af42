"""Equal-width and equal-mass bins (SPEC.md sections 3 and 5)."""
def edges(bins):
    return [i / bins for i in range(bins + 1)]


def width_bin(v, edge_list):
    """1-based bin of v."""
    bins = len(edge_list) - 1
    return min(int(v * bins) + 1, bins)


def mass_bins(n, bins):
    """Start/stop index pairs of the equal-mass bins over n sorted positions."""
    size = max(n // bins, 1)
    out = []
    for b in range(bins):
        lo = b * size
        hi = n if b == bins - 1 else min((b + 1) * size, n)
        if hi > lo:
            out.append((lo, hi))
    return out
