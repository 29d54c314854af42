"""Timestamp association between an estimated trajectory and its ground truth."""
def associate(est_stamps, gt_stamps, tolerance, offset=0.0):
    """Pairs estimate stamps with ground-truth stamps, one to one.

    An estimate stamp t is compared on the ground-truth clock as t + offset. Every pair closer
    than `tolerance` is a candidate; candidates are taken greedily by increasing difference
    (ties: earlier ground-truth stamp, then earlier estimate stamp), skipping stamps already used.
    Returns index pairs (i_est, i_gt) sorted by estimate stamp.
    """
    pairs = []
    for i, t in enumerate(est_stamps):
        te = t - offset
        for j, tg in enumerate(gt_stamps):
            if abs(te - tg) <= tolerance:
                pairs.append((i, j))
                break
    return pairs
