"""Preprocessing fitted on training rows only: median imputation, standardisation, one-hot coding."""
import math

from .reader import is_missing, parse_number


def median(values):
    v = sorted(values)
    n = len(v)
    if n == 0:
        return 0.0
    mid = n // 2
    return v[mid]


def reference_level(levels):
    """Most frequent level."""
    counts = {}
    for lv in levels:
        counts[lv] = counts.get(lv, 0) + 1
    return max(counts, key=lambda lv: (counts[lv], lv))


class NumericStep:
    def __init__(self, name, rows):
        self.name = name
        vals = [parse_number(r[name]) for r in rows]
        self.fill = median([v for v in vals if v is not None])
        filled = [self.fill if v is None else v for v in vals]
        n = len(filled)
        self.mean = sum(filled) / n
        self.sd = math.sqrt(sum((v - self.mean) ** 2 for v in filled) / (n - 1))

    def columns(self):
        return [] if self.sd == 0 else [self.name]

    def transform(self, row):
        if self.sd == 0:
            return []
        v = parse_number(row[self.name])
        if v is None:
            v = self.fill
        return [(v - self.mean) / self.sd]


class CategoricalStep:
    def __init__(self, name, rows):
        self.name = name
        seen = [r[name].strip() for r in rows if not is_missing(r[name])]
        self.levels = []
        if seen:
            ref = reference_level(seen)
            self.levels = sorted(set(seen) - {ref})

    def columns(self):
        return ["%s=%s" % (self.name, lv) for lv in self.levels]

    def transform(self, row):
        cell = row[self.name]
        value = None if is_missing(cell) else cell.strip()
        return [1.0 if value == lv else 0.0 for lv in self.levels]


class Preprocessor:
    """Fitted on the training rows; transforms any row with the training statistics."""

    def __init__(self, features, categorical, rows):
        self.steps = [CategoricalStep(f, rows) if f in categorical else NumericStep(f, rows) for f in features]

    def columns(self):
        return [c for s in self.steps for c in s.columns()]

    def transform(self, rows):
        return [[x for s in self.steps for x in s.transform(r)] for r in rows]
