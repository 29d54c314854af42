"""Choosing the penalty: the minimum and the one-standard-error rule."""


def lambda_min(curve):
    """(lambda, cv_rmse, se) with the smallest cv_rmse; exact ties go to the largest lambda."""
    best = None
    for point in curve:
        if best is None or point[1] < best[1] or (point[1] == best[1] and point[0] > best[0]):
            best = point
    return best


def lambda_1se(curve):
    """The largest lambda whose cv_rmse is within one standard error of the minimum's."""
    lam, cv, se = lambda_min(curve)
    limit = cv + se
    return max((p for p in curve if p[1] <= limit), key=lambda p: p[0])
