"""Seeded raw-prediction bundles and the expected table computed from the canonical predictions."""
import csv, gzip, io, json, math

MODELS = ["bow-lr", "cnn-small", "bilstm", "distil-ft", "large-ft", "prompt-0shot"]
DATASETS = [("sst2", ["neg", "pos"]), ("imdb", ["negative", "positive"]), ("agnews", ["world", "sports", "business", "scitech"]),
            ("trec", ["abbr", "desc", "enty", "hum", "loc", "num"]), ("rte", ["entail", "not_entail"])]


def to_csv(header, rows):
    b = io.StringIO()
    w = csv.writer(b, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return b.getvalue().encode()


def f1s(gold, pred, classes):
    out = []
    for c in classes:
        tp = sum(1 for i in gold if gold[i] == c and pred.get(i) == c)
        fp = sum(1 for i in gold if gold[i] != c and pred.get(i) == c)
        fn = sum(1 for i in gold if gold[i] == c and pred.get(i) != c)
        out.append(0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn))
    return sum(out) / len(out)


def auc(gold, score, pos):
    P = [score[i] for i in gold if gold[i] == pos]
    N = [score[i] for i in gold if gold[i] != pos]
    s = sum((1.0 if p > q else 0.5 if p == q else 0.0) for p in P for q in N)
    return s / (len(P) * len(N))


def mcn(b, c):
    n = b + c
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2.0 ** n)


def build(rng, kind):
    """kind: plain | multiclass | messy. Returns (files, expected rows keyed by (dataset, model))."""
    files, cfg, exp = {}, [], {}
    pool = [d for d in DATASETS if (len(d[1]) > 2) == (kind == "multiclass") or kind == "messy"]
    for name, classes in rng.sample(pool, min(len(pool), 2)):
        n = rng.randint(120, 260)
        ids = ["%s-%05d" % (name, rng.randint(0, 99999)) for _ in range(n)]
        ids = sorted(set(ids))
        gold = {i: rng.choice(classes) for i in ids}
        binary = len(classes) == 2
        models = sorted(rng.sample(MODELS, rng.randint(3, 4)))
        base = rng.choice(models)
        ent = {"name": name, "gold": "%s/gold.csv" % name, "baseline": base, "task": "binary" if binary else "multiclass"}
        if binary:
            ent["positive"] = classes[1]
        cfg.append(ent)
        gl = [(i, gold[i]) for i in ids]
        rng.shuffle(gl)
        if kind == "messy":
            files["%s/gold.csv" % name] = to_csv(["example_id", "Label"], [(i, rng.choice([g, g.upper(), " " + g + " "])) for i, g in gl])
        else:
            files["%s/gold.csv" % name] = to_csv(["id", "label"], gl)
        codes = {c: str(k) for k, c in enumerate(classes)}
        use_map = kind == "messy" and rng.random() < 0.7
        if use_map:
            files["%s/label_map.json" % name] = json.dumps({v: k for k, v in codes.items()}).encode()
        for mo in models:
            q = rng.uniform(0.55, 0.92)
            pred, score = {}, {}
            for i in ids:
                p = gold[i] if rng.random() < q else rng.choice(classes)
                pred[i] = p
                if binary:
                    base_s = 0.5 + (0.35 if p == classes[1] else -0.35) + rng.uniform(-0.3, 0.3)
                    score[i] = round(min(1.0, max(0.0, base_s)), 2)
            missing = set(rng.sample(ids, rng.randint(1, 6))) if kind == "messy" else set()
            rows = []
            idc, pc, sc = "id", "pred", "score"
            if kind == "messy":
                idc, pc = rng.choice(["id", "example_id", "uid", "ex_id"]), rng.choice(["pred", "prediction", "y_pred", "label_pred"])
                sc = rng.choice(["score", "prob", "p_pos", "logit"])
            for i in ids:
                if i in missing:
                    continue
                lab = codes[pred[i]] if use_map else pred[i]
                row = [i, lab]
                if binary:
                    s = score[i]
                    if sc == "logit":
                        s = math.log(s / (1 - s)) if 0 < s < 1 else (-30.0 if s == 0 else 30.0)
                        score[i] = round(1 / (1 + math.exp(-s)), 12)
                    row.append(repr(s) if sc == "logit" else "%.2f" % s)
                rows.append(row)
            if kind == "messy":
                # Stale duplicate rows earlier in the file; the last occurrence counts.
                for i in rng.sample([i for i in ids if i not in missing], 3):
                    rows.insert(0, [i, codes[classes[0]] if use_map else classes[0]] + (["0.50"] if binary else []))
            hdr = [idc, pc] + ([sc] if binary else [])
            data = to_csv(hdr, rows)
            fname = "%s/preds/%s.csv" % (name, mo)
            if kind == "messy" and rng.random() < 0.5:
                data, fname = gzip.compress(data, mtime=0), fname + ".gz"
            files[fname] = data
            for i in missing:
                pred.pop(i)
                if binary:
                    score[i] = 0.5
            exp[(name, mo)] = dict(pred=pred, score=score)
        files["%s/preds/README.md" % name] = b"exported from the training cluster\n"
        correct = {mo: {i: exp[(name, mo)]["pred"].get(i) == gold[i] for i in ids} for mo in models}
        for mo in models:
            e = exp[(name, mo)]
            row = dict(n=len(ids), accuracy=sum(correct[mo].values()) / len(ids), macro_f1=f1s(gold, e["pred"], classes),
                       auroc=auc(gold, e["score"], classes[1]) if binary else None, mcnemar_p=None)
            if mo != base:
                b = sum(1 for i in ids if correct[base][i] and not correct[mo][i])
                c = sum(1 for i in ids if not correct[base][i] and correct[mo][i])
                row["mcnemar_p"] = mcn(b, c)
            exp[(name, mo)] = row
    files["datasets.json"] = json.dumps({"datasets": cfg}, indent=1).encode()
    return files, exp
