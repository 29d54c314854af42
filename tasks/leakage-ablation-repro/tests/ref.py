"""The grader's own reading of PROTOCOL.md: cross-validated predictions computed column-wise.

Written apart from the solution: columns instead of rows, math.fsum sums, the F statistic from
total minus within sums of squares, neighbours by heap selection, Gaussian log-likelihoods with
the constant split out. Besides the predictions it returns the smallest decision margin met on
the way (distance gaps at the neighbour cut, F gaps at the selection cut, log-posterior gaps), so
the generator can reject data whose answer could flip with the order of floating-point sums.
"""
import csv, heapq, io, itertools, math

NA = frozenset(["", "NA", "?"])
LOG2PI = math.log(2.0 * math.pi)


class Study:
    """Labelled rows of a data.csv text, held by column."""

    def __init__(self, text):
        grid = list(csv.reader(io.StringIO(text)))
        head = [h.strip() for h in grid[0]]
        pos = dict((h, j) for j, h in enumerate(head))
        lab = pos["label"]
        kept = []
        for r in grid[1:]:
            if not r or not "".join(r).strip():
                continue
            if r[lab].strip() in NA:
                continue
            kept.append(r)
        self.head = head
        self.cells = dict((h, [r[pos[h]].strip() for r in kept]) for h in head)
        self.ids = self.cells["record_id"]
        self.subjects = self.cells["subject"]
        self.y = self.cells["label"]
        self.features = [h for h in head if h[:2] == "f_"]
        self.n = len(kept)
        # Work that configurations of this study share (parsed inputs, fold designs, neighbour
        # distances), kept for the study's lifetime: see predictions().
        self.memo = {}

    def column(self, name):
        return [(None if c in NA else float(c)) for c in self.cells[name]]


_RECENT = []  # [(text, Study)], the last two read through study_of()


def study_of(text):
    """Study(text), but the same object for a text read again soon after: the generator scores a
    study (expected_table) and then writes its run logs (run_logs) from the same text, and the
    second then reuses the first one's predictions through the study's memo."""
    for seen, study in _RECENT:
        if seen == text:
            return study
    study = Study(text)
    _RECENT[:] = [(text, study)] + _RECENT[:1]
    return study


def folds_of(subjects, k):
    """Protocol folds: subjects numbered by first appearance, number mod k."""
    first = []
    rank = {}
    for s in subjects:
        rank.setdefault(s, len(first))
        if rank[s] == len(first):
            first.append(s)
    return [rank[s] % k for s in subjects]


def fill_stats(vals):
    """(mean, population sd) of a column after mean imputation."""
    # (Here and below, fsum of a list rather than a generator: the same terms, less overhead.)
    seen = [v for v in vals if v is not None]
    mu = math.fsum(seen) / len(seen) if seen else 0.0
    dev = math.fsum([(mu - (mu if v is None else v)) ** 2 for v in vals])
    return mu, math.sqrt(dev / len(vals)) if vals else 0.0


def f_stat(col, ys):
    n = len(col)
    mu = math.fsum(col) / n
    total = math.fsum([(v - mu) ** 2 for v in col])
    by = {}
    for v, c in zip(col, ys):
        by.setdefault(c, []).append(v)
    within = 0.0
    for vs in by.values():
        m = math.fsum(vs) / len(vs)
        within += math.fsum([(v - m) ** 2 for v in vs])
    between = total - within
    g = len(by)
    if g < 2:
        return 0.0
    if within <= 0 or n - g <= 0:
        return math.inf if between > 0 else 0.0
    return (between / (g - 1)) / (within / (n - g))


class Margin:
    def __init__(self):
        self.low = math.inf

    def gap(self, a, b, rel=True):
        d = abs(b - a)
        if rel:
            d = d / max(abs(a), abs(b), 1e-300)
        self.low = min(self.low, d)

    def meet(self, other):
        """Every gap another Margin met, as if met here (only the smallest counts)."""
        self.low = min(self.low, other.low)


def design(study, cfg, cols, train, test, mg):
    """Column lists for one fold: train-fold imputation, selection, scaling."""
    ytr = [study.y[i] for i in train]
    tr_cols, te_cols = [], []
    for col in cols:
        seen = [col[i] for i in train if col[i] is not None]
        fill = math.fsum(seen) / len(seen) if seen else 0.0
        tr_cols.append([fill if col[i] is None else col[i] for i in train])
        te_cols.append([fill if col[i] is None else col[i] for i in test])
    m = cfg.get("select")
    if m:
        m = int(m)
        fs = [f_stat(c, ytr) for c in tr_cols]
        rank = sorted(range(len(fs)), key=lambda j: (-fs[j], j))
        if m < len(fs):
            mg.gap(fs[rank[m - 1]], fs[rank[m]])
        chosen = sorted(rank[:m])
        tr_cols = [tr_cols[j] for j in chosen]
        te_cols = [te_cols[j] for j in chosen]
    if cfg.get("scale"):
        for j in range(len(tr_cols)):
            c = tr_cols[j]
            mu = math.fsum(c) / len(c)
            sd = math.sqrt(math.fsum([(v - mu) ** 2 for v in c]) / len(c)) or 1.0
            tr_cols[j] = [(v - mu) / sd for v in c]
            te_cols[j] = [(v - mu) / sd for v in te_cols[j]]
    return tr_cols, te_cols, ytr


def distances(tr_cols, te_cols):
    """Per test row, its distance to each training row i: fsum of (x_j - row_i[j]) ** 2 over the
    inputs j. The squares are made column by column (the grader's hot loop: a comprehension per
    column is much cheaper than a generator per row), then summed per row, in input order, by fsum."""
    out = []
    for x in zip(*te_cols):
        squares = [[(a - b) ** 2 for b in col] for a, col in zip(x, tr_cols)]
        out.append(list(map(math.fsum, zip(*squares))))
    return out


def knn_predict(dists, ytr, k, mg):
    """dists: distances() of the fold's test rows."""
    out = []
    for row in dists:
        cand = heapq.nsmallest(min(k + 1, len(row)), zip(row, itertools.count()))
        for a, b in zip(cand, cand[1:]):
            mg.gap(a[0], b[0])
        top = cand[:k]
        count = {}
        for _, i in top:
            count[ytr[i]] = count.get(ytr[i], 0) + 1
        most = max(count.values())
        out.append(next(ytr[i] for _, i in top if count[ytr[i]] == most))
    return out


def gnb_predict(tr_cols, te_cols, ytr, mg):
    n = len(ytr)
    spread = []
    for c in tr_cols:
        mu = math.fsum(c) / n
        spread.append(math.fsum([(v - mu) ** 2 for v in c]) / n)
    eps = 1e-9 * max(spread)
    model = []
    for cls in sorted(set(ytr)):
        idx = [i for i, t in enumerate(ytr) if t == cls]
        mus, vs = [], []
        for c in tr_cols:
            part = [c[i] for i in idx]
            mu = math.fsum(part) / len(part)
            mus.append(mu)
            vs.append(math.fsum([(v - mu) ** 2 for v in part]) / len(part) + eps)
        const = math.log(len(idx) / n) - 0.5 * math.fsum(LOG2PI + math.log(v) for v in vs)
        model.append((cls, const, mus, vs))
    out = []
    for x in zip(*te_cols):
        scored = [(const - 0.5 * math.fsum((a - m) ** 2 / v for a, m, v in zip(x, mus, vs)), cls)
                  for cls, const, mus, vs in model]
        best = max(s for s, _ in scored)
        winners = [cls for s, cls in scored if s == best]
        rest = [s for s, _ in scored if s != best]
        if rest:
            mg.gap(best, max(rest), rel=False)
        if len(winners) > 1:
            mg.gap(0.0, 0.0, rel=False)
        out.append(winners[0])
    return out


def predictions(study, cfg, k, fold_of=None):
    """(pooled out-of-fold predictions, smallest margin) of one configuration. Kept in the study's
    memo: the generator asks again for configurations it has scored (run_logs after expected_table)."""
    if fold_of is None:
        fold_of = folds_of(study.subjects, k)
    m = cfg.get("select")
    shape = (bool(cfg.get("scale")), int(m) if m else None)  # all that design() reads of cfg
    neighbours = int(cfg["k"]) if cfg["model"] == "knn" else None
    key = ("predictions", cfg["model"], neighbours) + shape + (tuple(fold_of),)
    if key not in study.memo:
        study.memo[key] = _predictions(study, cfg, fold_of, shape)
    pred, low = study.memo[key]
    return list(pred), low


def _predictions(study, cfg, fold_of, shape):
    memo = study.memo
    if "cols" not in memo:
        memo["cols"] = [study.column(f) for f in study.features]
    cols = memo["cols"]
    pred = [None] * study.n
    mg = Margin()
    # A fold's design depends only on its test rows, the selection size and scaling, and the
    # neighbour distances only on the design: configurations that agree on those (knn1/knn3/knn5
    # on standardised inputs, say) share them through the study's memo instead of redoing them.
    # Nothing shared is modified after it is made; the selection-cut gap a design met is met again
    # by each configuration's own Margin.
    for f in sorted(set(fold_of)):
        test = [i for i in range(study.n) if fold_of[i] == f]
        train = [i for i in range(study.n) if fold_of[i] != f]
        key = (tuple(test),) + shape
        if key not in memo:
            seen = Margin()
            memo[key] = design(study, cfg, cols, train, test, seen) + (seen,)
        tr_cols, te_cols, ytr, seen = memo[key]
        mg.meet(seen)
        if cfg["model"] == "knn":
            if key + ("distances",) not in memo:
                memo[key + ("distances",)] = distances(tr_cols, te_cols)
            got = knn_predict(memo[key + ("distances",)], ytr, int(cfg["k"]), mg)
        else:
            got = gnb_predict(tr_cols, te_cols, ytr, mg)
        for i, p in zip(test, got):
            pred[i] = p
    return pred, mg.low


def scores(gold, pred):
    """(accuracy, macro-F1 over the gold classes)."""
    n = len(gold)
    acc = sum(1 for a, b in zip(gold, pred) if a == b) / n
    f1 = []
    for c in sorted(set(gold)):
        tp = sum(1 for a, b in zip(gold, pred) if a == c and b == c)
        gold_c = sum(1 for a in gold if a == c)
        pred_c = sum(1 for b in pred if b == c)
        f1.append(2.0 * tp / (gold_c + pred_c) if gold_c + pred_c else 0.0)
    return acc, math.fsum(f1) / len(f1)
