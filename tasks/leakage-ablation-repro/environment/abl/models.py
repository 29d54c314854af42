"""Deterministic classifiers: k-nearest neighbours and Gaussian naive Bayes."""
import math


class KNN:
    def __init__(self, k):
        self.k = k

    def fit(self, X, y):
        self.X, self.y = X, y
        return self

    def predict_one(self, x):
        dist = []
        for i, row in enumerate(self.X):
            d = 0.0
            for a, b in zip(x, row):
                d += (a - b) ** 2
            dist.append((d, i))
        dist.sort()
        near = dist[: self.k]
        votes = {}
        for _, i in near:
            votes[self.y[i]] = votes.get(self.y[i], 0) + 1
        best = max(votes.values())
        # Tied classes: the one holding the nearest neighbour wins.
        for _, i in near:
            if votes[self.y[i]] == best:
                return self.y[i]

    def predict(self, X):
        return [self.predict_one(x) for x in X]


class GaussianNB:
    VAR_SMOOTHING = 1e-9

    def fit(self, X, y):
        n, p = len(X), len(X[0])
        self.classes = sorted(set(y))
        allvar = []
        for j in range(p):
            m = sum(r[j] for r in X) / n
            allvar.append(sum((r[j] - m) ** 2 for r in X) / n)
        eps = self.VAR_SMOOTHING * max(allvar)
        self.params = {}
        for c in self.classes:
            rows = [r for r, t in zip(X, y) if t == c]
            nc = len(rows)
            mu = [sum(r[j] for r in rows) / nc for j in range(p)]
            var = [sum((r[j] - mu[j]) ** 2 for r in rows) / nc + eps for j in range(p)]
            self.params[c] = (math.log(nc / n), mu, var)
        return self

    def predict_one(self, x):
        best, best_c = None, None
        for c in self.classes:
            lp, mu, var = self.params[c]
            s = lp
            for v, m, s2 in zip(x, mu, var):
                s -= 0.5 * (math.log(2 * math.pi * s2) + (v - m) ** 2 / s2)
            if best is None or s > best:
                best, best_c = s, c
        return best_c

    def predict(self, X):
        return [self.predict_one(x) for x in X]
