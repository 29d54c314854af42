#!/usr/bin/env python3
"""Recompute the results table: accuracy, macro-F1, AUROC (ties = 1/2), exact McNemar vs baseline."""
import csv, gzip, io, json, math, os, sys

ID = ["id", "example_id", "uid", "ex_id"]
PRED = ["pred", "prediction", "y_pred", "label_pred"]
SCORE = ["score", "prob", "p_pos", "prob_pos"]


def norm(s):
    return str(s).strip().lower()


def read_csv(path):
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


def col(row, names):
    keys = {k.strip().lower(): k for k in row}
    for n in names:
        if n in keys:
            return keys[n]
    return None


def auroc(pos, neg):
    allv = sorted([(s, 1) for s in pos] + [(s, 0) for s in neg])
    rank_sum, i = 0.0, 0
    while i < len(allv):
        j = i
        while j < len(allv) and allv[j][0] == allv[i][0]:
            j += 1
        avg = (i + 1 + j) / 2.0
        rank_sum += avg * sum(1 for k in range(i, j) if allv[k][1] == 1)
        i = j
    return (rank_sum - len(pos) * (len(pos) + 1) / 2.0) / (len(pos) * len(neg))


def mcnemar(b, c):
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    p = sum(math.comb(n, i) for i in range(k + 1)) / 2.0 ** n
    return min(1.0, 2 * p)


def main():
    root, out = sys.argv[1], sys.argv[2]
    cfg = json.load(open(os.path.join(root, "datasets.json")))
    rows = []
    for ds in cfg["datasets"]:
        d = os.path.join(root, ds["name"])
        gold = {}
        for r in read_csv(os.path.join(root, ds["gold"])):
            gold[norm(r[col(r, ID)])] = norm(r[col(r, ["label", "gold", "y_true", "target"])])
        lmap = {}
        if os.path.exists(os.path.join(d, "label_map.json")):
            lmap = {norm(k): norm(v) for k, v in json.load(open(os.path.join(d, "label_map.json"))).items()}
        preds = {}
        pdir = os.path.join(d, "preds")
        for f in sorted(os.listdir(pdir)):
            if not (f.endswith(".csv") or f.endswith(".csv.gz")):
                continue
            model = f[:-7] if f.endswith(".csv.gz") else f[:-4]
            m = {}
            for r in read_csv(os.path.join(pdir, f)):
                ic, pc = col(r, ID), col(r, PRED)
                sc, lc = col(r, SCORE), col(r, ["logit"])
                p = norm(r[pc])
                p = lmap.get(p, p)
                s = None
                if sc and r[sc].strip() != "":
                    s = float(r[sc])
                elif lc and r[lc].strip() != "":
                    s = 1 / (1 + math.exp(-float(r[lc])))
                m[norm(r[ic])] = (p, s)
            preds[model] = m
        classes = sorted(set(gold.values()))
        ids = sorted(gold)
        correct = {mo: {i: (m.get(i, (None, None))[0] == gold[i]) for i in ids} for mo, m in preds.items()}
        base = ds.get("baseline")
        for mo in sorted(preds):
            m = preds[mo]
            n = len(ids)
            acc = sum(correct[mo].values()) / n
            f1s = []
            for c in classes:
                tp = sum(1 for i in ids if gold[i] == c and m.get(i, (None,))[0] == c)
                fp = sum(1 for i in ids if gold[i] != c and m.get(i, (None,))[0] == c)
                fn = sum(1 for i in ids if gold[i] == c and m.get(i, (None,))[0] != c)
                f1s.append(0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn))
            f1 = sum(f1s) / len(f1s)
            au = ""
            if ds.get("task") == "binary":
                pl = norm(ds["positive"])
                sc = {i: (m[i][1] if i in m and m[i][1] is not None else 0.5) for i in ids}
                au = "%.6f" % auroc([sc[i] for i in ids if gold[i] == pl], [sc[i] for i in ids if gold[i] != pl])
            pv = ""
            if base and mo != base and base in correct:
                b = sum(1 for i in ids if correct[base][i] and not correct[mo][i])
                c = sum(1 for i in ids if not correct[base][i] and correct[mo][i])
                pv = "%.6g" % mcnemar(b, c)
            rows.append([ds["name"], mo, n, "%.6f" % acc, "%.6f" % f1, au, pv])
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["dataset", "model", "n", "accuracy", "macro_f1", "auroc", "mcnemar_p"])
        w.writerows(rows)


if __name__ == "__main__":
    main()
