"""From pixel rows to runs, and the label reading loop (SPEC section 2)."""
from . import code128, ean13

MIN_CONTRAST = 32
QUIET_MODULES = 7
READERS = (ean13, code128)


def threshold(row):
    """Per-row threshold: the midpoint of the row's darkest and lightest pixel."""
    return (min(row) + max(row)) / 2.0


def to_runs(row):
    """[(dark, width)] of the thresholded row, left to right; None for a flat row."""
    lo, hi = min(row), max(row)
    if hi - lo < MIN_CONTRAST:
        return None
    t = threshold(row)
    runs = []
    for v in row:
        d = v < t
        if runs and runs[-1][0] == d:
            runs[-1][1] += 1
        else:
            runs.append([d, 1])
    return [(d, w) for d, w in runs]


def find_symbol(runs):
    """The first symbol (from the left) with both quiet zones: (symbology, values-info) or None."""
    for i in range(1, len(runs) - 1):
        if not runs[i][0]:
            continue
        for reader in READERS:
            got = reader.read_at(runs, i)
            if got is None:
                continue
            end, modules, result = got
            width = sum(w for _, w in runs[i:end + 1])
            x = width / float(modules)
            if end + 1 >= len(runs):
                continue
            if runs[i - 1][1] < QUIET_MODULES * x or runs[end + 1][1] < QUIET_MODULES * x:
                continue
            return result
    return None


def row_order(height):
    mid = height // 2
    order = [mid]
    for k in range(1, height):
        for y in (mid - k, mid + k):
            if 0 <= y < height:
                order.append(y)
    return order


def read_label(rows):
    """SPEC 2.5: {status, symbology, text, rotated}."""
    fallback = None
    for y in row_order(len(rows)):
        row = list(rows[y])
        for rotated, line in ((False, row), (True, row[::-1])):
            runs = to_runs(line)
            if runs is None:
                continue
            res = find_symbol(runs)
            if res is None:
                continue
            symbology, text, valid = res
            if valid:
                return {"status": "ok", "symbology": symbology, "text": text, "rotated": rotated}
            if fallback is None:
                fallback = {"status": "checksum_error", "symbology": symbology, "text": text, "rotated": rotated}
    if fallback is not None:
        return fallback
    return {"status": "unreadable", "symbology": None, "text": None, "rotated": None}
