"""Preprocessing: mean imputation and standardisation (fit on some rows, apply to any)."""
import math


class MeanImputer:
    def fit(self, X):
        p = len(X[0]) if X else 0
        self.means = []
        for j in range(p):
            vals = [row[j] for row in X if row[j] is not None]
            self.means.append(sum(vals) / len(vals) if vals else 0.0)
        return self

    def transform(self, X):
        return [[self.means[j] if v is None else v for j, v in enumerate(row)] for row in X]


class Standardizer:
    def fit(self, X):
        n = len(X)
        p = len(X[0]) if X else 0
        self.mean, self.sd = [], []
        for j in range(p):
            m = sum(row[j] for row in X) / n
            var = sum((row[j] - m) ** 2 for row in X) / n
            sd = math.sqrt(var)
            self.mean.append(m)
            self.sd.append(sd if sd > 0 else 1.0)
        return self

    def transform(self, X):
        return [[(v - self.mean[j]) / self.sd[j] for j, v in enumerate(row)] for row in X]
