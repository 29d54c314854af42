"""Grouped fold assignment: every row of a subject lands in the same fold."""


def assign_folds(rows, subject, k):
    """Fold number per row: the i-th subject (0-based) gets fold i mod k."""
    subjects = []
    for r in rows:
        if r[subject].strip() not in subjects:
            subjects.append(r[subject].strip())
    fold_of = {s: i % k for i, s in enumerate(subjects)}
    return [fold_of[r[subject].strip()] for r in rows]

