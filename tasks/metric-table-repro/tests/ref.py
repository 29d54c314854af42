"""The grader's own reading of METRICS.md: exact Fractions, brute-force pair counting for AUROC,
per-positive precision for AP, exact bin edges for ECE. Written from the spec, not from solution/."""
import csv
import gzip
import io
import json
import math
import os
from fractions import Fraction

ALIAS = {
    "id": {"id", "example_id", "uid", "ex_id"},
    "gold": {"label", "gold", "y_true", "target"},
    "pred": {"pred", "prediction", "y_pred", "label_pred"},
    "prob": {"score", "prob", "p_pos", "prob_pos"},
}
COLS = ["n", "accuracy", "macro_f1", "weighted_f1", "auroc", "ap", "ece", "mcnemar_p"]


def clean(x):
    return (x or "").strip().lower()


def table_of(path):
    raw = open(path, "rb").read()
    try:
        raw = gzip.decompress(raw)
    except OSError:
        pass
    text = raw.decode("utf-8-sig")
    lines = [r for r in csv.reader(io.StringIO(text)) if any(x.strip() for x in r)]
    head = [clean(h) for h in lines[0]]
    return [dict(zip(head, r)) for r in lines[1:]]


def pick(rec, role):
    for k in rec:
        if k in ALIAS[role]:
            return k
    return None


def prob_of(rec):
    k = pick(rec, "prob")
    if k is not None:
        return Fraction(rec[k].strip())
    x = float(rec["logit"])
    return Fraction(1.0 / (1.0 + math.exp(-x)))


def release(folder):
    """[{name, task, positive, baseline, gold: {id: label}, order: [ids], models: {m: {id: (label, prob)}}}]"""
    spec = json.load(open(os.path.join(folder, "datasets.json"), encoding="utf-8"))
    res = []
    for d in spec["datasets"]:
        gold_rows = table_of(os.path.join(folder, d["gold"]))
        ki, kg = pick(gold_rows[0], "id"), pick(gold_rows[0], "gold")
        gold = {clean(r[ki]): clean(r[kg]) for r in gold_rows}
        lm_path = os.path.join(folder, d["name"], "label_map.json")
        lm = {}
        if os.path.isfile(lm_path):
            lm = {clean(a): clean(b) for a, b in json.load(open(lm_path, encoding="utf-8")).items()}
        models = {}
        pdir = os.path.join(folder, d["name"], "preds")
        for f in os.listdir(pdir):
            if f.endswith(".csv.gz"):
                m = f[:-7]
            elif f.endswith(".csv"):
                m = f[:-4]
            else:
                continue
            got = {}
            for r in table_of(os.path.join(pdir, f)):
                lab = clean(r[pick(r, "pred")])
                lab = lm.get(lab, lab)
                got[clean(r[pick(r, "id")])] = (lab, prob_of(r) if d["task"] == "binary" else None)
            models[m] = got
        res.append({"name": d["name"], "task": d["task"], "positive": clean(d.get("positive")),
                    "baseline": d["baseline"], "gold": gold, "models": models})
    return res


def f1_table(gold, pred, classes):
    out = {}
    for c in classes:
        tp = fp = fn = 0
        for i, g in gold.items():
            p = pred.get(i)
            tp += (g == c and p == c)
            fp += (g != c and p == c)
            fn += (g == c and p != c)
        out[c] = Fraction(0) if tp == 0 else Fraction(2 * tp, 2 * tp + fp + fn)
    return out


def scores(d, m):
    """[(prob, positive?)] with a missing prediction scored exactly one half."""
    got = d["models"][m]
    return [(got[i][1] if i in got else Fraction(1, 2), g == d["positive"]) for i, g in d["gold"].items()]


def auc_pairs(sc, tie):
    P = [s for s, y in sc if y]
    N = [s for s, y in sc if not y]
    if not P or not N:
        return None
    tot = Fraction(0)
    for a in P:
        for b in N:
            tot += 1 if a > b else (tie if a == b else 0)
    return tot / (len(P) * len(N))


def ap_exact(sc):
    pos = [s for s, y in sc if y]
    if not pos:
        return None
    acc = Fraction(0)
    for t in pos:
        above = [y for s, y in sc if s >= t]
        acc += Fraction(sum(above), len(above))
    return acc / len(pos)


def ece_exact(sc):
    groups = {}
    for s, y in sc:
        k = min(9, math.floor(s * 10))
        groups.setdefault(k, []).append((s, y))
    tot = Fraction(0)
    for mem in groups.values():
        gap = Fraction(sum(y for _, y in mem), len(mem)) - sum(s for s, _ in mem) / len(mem)
        tot += Fraction(len(mem), len(sc)) * abs(gap)
    return tot


def mcnemar(b, c, factor=2):
    if b + c == 0:
        return Fraction(1)
    tail = sum(math.comb(b + c, k) for k in range(min(b, c) + 1))
    return min(Fraction(1), Fraction(factor * tail, 2 ** (b + c)))


def discordant(d, m):
    base, mod = d["models"][d["baseline"]], d["models"][m]
    b = c = 0
    for i, g in d["gold"].items():
        rb = i in base and base[i][0] == g
        rm = i in mod and mod[i][0] == g
        b += rb and not rm
        c += rm and not rb
    return b, c


def row(d, m):
    gold, got = d["gold"], d["models"][m]
    pred = {i: got[i][0] for i in gold if i in got}
    n = len(gold)
    classes = set(gold.values())
    f1 = f1_table(gold, pred, classes)
    support = {c: sum(1 for g in gold.values() if g == c) for c in classes}
    r = {"n": n, "accuracy": Fraction(sum(pred.get(i) == g for i, g in gold.items()), n),
         "macro_f1": sum(f1.values()) / len(f1),
         "weighted_f1": sum(support[c] * f1[c] for c in classes) / n,
         "auroc": None, "ap": None, "ece": None, "mcnemar_p": None}
    if d["task"] == "binary":
        sc = scores(d, m)
        r["auroc"], r["ap"], r["ece"] = auc_pairs(sc, Fraction(1, 2)), ap_exact(sc), ece_exact(sc)
    if m != d["baseline"]:
        r["mcnemar_p"] = mcnemar(*discordant(d, m))
    return r


def table(folder):
    """[(dataset, model, {column: Fraction/int/None})] in the table's row order."""
    out = []
    for d in release(folder):
        for m in sorted(d["models"]):
            out.append((d["name"], m, row(d, m)))
    return out


def variants(folder):
    """{(dataset, model): {column: the value a known wrong method gives}}."""
    res = {}
    for d in release(folder):
        gold = d["gold"]
        for m, got in d["models"].items():
            v = {}
            have = [i for i in gold if i in got]
            if have:
                v["accuracy"] = Fraction(sum(got[i][0] == gold[i] for i in have), len(have))
            pred = {i: got[i][0] for i in have}
            cls = set(gold.values()) | set(pred.values())
            f1 = f1_table(gold, pred, cls)
            v["macro_f1"] = sum(f1.values()) / len(f1)
            if d["task"] == "binary":
                v["auroc"] = auc_pairs(scores(d, m), 0)
            if m != d["baseline"]:
                b, c = discordant(d, m)
                v["mcnemar_p"] = mcnemar(b, c, factor=1) if b + c else None
            res[(d["name"], m)] = v
    return res


def show(col, v):
    if v is None:
        return ""
    if col == "n":
        return str(v)
    if col == "mcnemar_p":
        return "%.6g" % float(v)
    return "%.6f" % float(v)


REASON = {"accuracy": "DROPPED_MISSING", "macro_f1": "EXTRA_CLASSES", "auroc": "TIES_AS_LOSS", "mcnemar_p": "ONE_SIDED"}


def near(col, claim, v):
    if col == "mcnemar_p":
        return abs(Fraction(claim) - v) <= Fraction(1, 10000) * v
    return abs(Fraction(claim) - v) <= Fraction(1, 10 ** 6)


def audit_expected(folder, claims_path):
    """{(dataset, model): (column, reason, correct as a number or None)} by METRICS.md section 8."""
    truth = {(a, b): r for a, b, r in table(folder)}
    alts = variants(folder)
    claims = {}
    for r in table_of(claims_path):
        claims[(r.get("dataset", "").strip(), r.get("model", "").strip())] = r
    want = {}
    for key in set(truth) | set(claims):
        if key not in truth:
            want[key] = ("", "UNKNOWN_ROW", None)
            continue
        if key not in claims:
            want[key] = ("", "MISSING_ROW", None)
            continue
        t, c = truth[key], claims[key]
        for col in COLS:
            text = (c.get(col) or "").strip()
            v = t[col]
            if col == "n":
                if text != str(v):
                    want[key] = (col, "WRONG_N", v)
                    break
                continue
            if v is None and not text:
                continue
            try:
                num = float(text) if text else None
            except ValueError:
                num = None
            if num is not None and v is not None and near(col, text, v):
                continue
            why = "VALUE_MISMATCH"
            alt = alts[key].get(col)
            if num is not None and col in REASON and alt is not None and near(col, text, alt):
                why = REASON[col]
            want[key] = (col, why, v)
            break
    return want
