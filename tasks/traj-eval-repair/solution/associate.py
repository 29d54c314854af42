"""Timestamp association between an estimated trajectory and its ground truth."""
import bisect


def associate(est_stamps, gt_stamps, tolerance, offset=0.0):
    """Pairs estimate stamps with ground-truth stamps, one to one.

    An estimate stamp t is compared on the ground-truth clock as t + offset. Every pair closer
    than `tolerance` is a candidate; candidates are taken greedily by increasing difference
    (ties: earlier ground-truth stamp, then earlier estimate stamp), skipping stamps already used.
    Returns index pairs (i_est, i_gt) sorted by estimate stamp.
    """
    cands = []
    for i, t in enumerate(est_stamps):
        te = t + offset
        lo = bisect.bisect_left(gt_stamps, te - tolerance)
        hi = bisect.bisect_right(gt_stamps, te + tolerance)
        for j in range(lo, hi):
            d = abs(te - gt_stamps[j])
            if d <= tolerance:
                cands.append((d, gt_stamps[j], t, i, j))
    cands.sort()
    used_e, used_g, pairs = set(), set(), []
    for _, _, _, i, j in cands:
        if i in used_e or j in used_g:
            continue
        used_e.add(i)
        used_g.add(j)
        pairs.append((i, j))
    pairs.sort()
    return pairs
