"""Equal-width and equal-mass bins (SPEC.md sections 3 and 5)."""
import bisect


def edges(bins):
    return [i / bins for i in range(bins + 1)]


def width_bin(v, edge_list):
    """1-based right-closed bin of v; 0 goes into bin 1."""
    i = bisect.bisect_left(edge_list, v)
    return min(max(i, 1), len(edge_list) - 1)


def mass_bins(n, bins):
    """Start/stop index pairs of the equal-mass bins over n sorted positions."""
    out = []
    for b in range(bins):
        lo, hi = (b * n) // bins, ((b + 1) * n) // bins
        if hi > lo:
            out.append((lo, hi))
    return out
