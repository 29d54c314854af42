"""Grouped fold assignment: every row of a subject lands in the same fold."""


def assign_folds(rows, subject, k):
    """Fold number per row: subjects sorted as strings, the i-th (0-based) gets fold i mod k."""
    subjects = sorted({r[subject].strip() for r in rows})
    fold_of = {s: i % k for i, s in enumerate(subjects)}
    return [fold_of[r[subject].strip()] for r in rows]


def row_folds(rows, k):
    """Folds by row position (not grouped); used only to recognise that mistake in audits."""
    return [i % k for i in range(len(rows))]
