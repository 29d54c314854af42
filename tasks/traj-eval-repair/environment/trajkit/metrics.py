"""Absolute trajectory error and relative pose error over a time delta."""
import math

from .align import apply
from .geometry import matmul, matvec, norm, quat_to_matrix, rotation_angle, sub, transpose


def ate(est_pos, gt_pos, s, r, t):
    """RMSE and per-pair errors of the aligned estimate against the ground truth."""
    errs = [norm(sub(g, apply(s, r, t, e))) for e, g in zip(est_pos, gt_pos)]
    return math.sqrt(sum(e * e for e in errs) / len(errs)), errs


def rpe(stamps, est, gt, scale, delta, tolerance):
    """Relative pose error over a time delta.

    stamps: ground-truth stamps of the matched pairs (in pair order); est, gt: their poses as
    (position, quaternion xyzw). For each pair k the partner j is the pair whose stamp is nearest
    to stamps[k] + delta (ties: the earlier), used when j > k and it lies within `tolerance` of it.
    Returns (translational RMSE, rotational RMSE in degrees, number of pairs) or None.
    """
    rot_e = [quat_to_matrix(q) for _, q in est]
    rot_g = [quat_to_matrix(q) for _, q in gt]
    te2, re2, n = 0.0, 0.0, 0
    rate = (len(stamps) - 1) / (stamps[-1] - stamps[0])
    step = max(1, int(round(delta * rate)))
    for k in range(len(stamps) - step):
        best = k + step
        dg_r = matmul(transpose(rot_g[k]), rot_g[best])
        dg_t = matvec(transpose(rot_g[k]), sub(gt[best][0], gt[k][0]))
        de_r = matmul(transpose(rot_e[k]), rot_e[best])
        de_t = [scale * c for c in matvec(transpose(rot_e[k]), sub(est[best][0], est[k][0]))]
        err_t = matvec(transpose(dg_r), sub(de_t, dg_t))
        err_r = matmul(transpose(dg_r), de_r)
        te2 += norm(err_t) ** 2
        re2 += math.degrees(rotation_angle(err_r)) ** 2
        n += 1
    if n == 0:
        return None
    return math.sqrt(te2 / n), math.sqrt(re2 / n), n


def path_length(points):
    return sum(norm(sub(points[i + 1], points[i])) for i in range(len(points) - 1))
