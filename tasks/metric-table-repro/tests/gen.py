"""Seeded prediction releases (datasets.json, gold files, prediction dumps) and planted claims files.

A release is built from correctness vectors: each model's right/wrong pattern is drawn first (a
"twin" model copies the baseline's pattern with k swaps each way, so b = c exactly), missing
predictions are taken from the wrong examples, and labels/scores are derived from the pattern.
Nothing here computes a metric: expected values come from ref.py."""
import csv
import gzip
import io
import json
import math

NAMES = ["sst2", "imdb", "yelp", "rte", "qnli", "agnews", "trec", "dbpedia", "emotion", "banking"]
MODELS = ["bow-lr", "cnn-small", "bilstm", "distil-ft", "large-ft", "prompt-0shot", "prompt-fewshot"]
BIN_LABELS = [("neg", "pos"), ("negative", "positive"), ("entail", "not_entail"), ("no", "yes")]
MC_LABELS = ["world", "sports", "business", "scitech", "abbr", "desc", "enty", "hum", "loc", "num"]
ID_ALIASES = ["id", "example_id", "uid", "ex_id"]
GOLD_ALIASES = ["label", "gold", "y_true", "target"]
PRED_ALIASES = ["pred", "prediction", "y_pred", "label_pred"]
PROB_ALIASES = ["score", "prob", "p_pos", "prob_pos"]


def csv_bytes(header, rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().encode()


def messy_name(rng, name):
    """A header cell in some case with padding."""
    v = rng.choice([name, name.upper(), name.title(), " %s " % name, " " + name.capitalize()])
    return v


def messy_text(rng, text):
    return rng.choice([text, text.upper(), " %s" % text, "%s  " % text.title(), text])


def quantised(rng, grid, lo, hi):
    """A probability in [lo, hi] on a grid of 0.01 or 0.05 (ties and bin edges on purpose)."""
    steps = int(round(1 / grid))
    a, b = int(math.ceil(lo * steps - 1e-9)), int(math.floor(hi * steps + 1e-9))
    return rng.randint(a, b) / steps


def dataset(rng, name, binary, messy, edges, public=False):
    n = rng.randint(36, 64)
    ids = sorted({"%s-%04d" % (name[:3], rng.randint(0, 9999)) for _ in range(n + 10)})[:n]
    rng.shuffle(ids)
    if binary:
        classes = list(rng.choice(BIN_LABELS))
    else:
        classes = sorted(rng.sample(MC_LABELS, rng.randint(3, 5)))
    gold = {i: rng.choice(classes) for i in ids}
    for c, i in zip(classes, ids):  # every class occurs in the gold file
        gold[i] = c
    models = sorted(rng.sample(MODELS, rng.randint(3, 4)))
    base = rng.choice(models)
    twin = rng.choice([m for m in models if m != base])
    right = {}
    q = rng.uniform(0.55, 0.85)
    right[base] = {i: rng.random() < q for i in ids}
    for m in models:
        if m == base:
            continue
        if m == twin and not public:
            r = dict(right[base])
            ok = [i for i in ids if r[i]]
            bad = [i for i in ids if not r[i]]
            k = rng.randint(1, max(1, min(len(ok), len(bad), 6)))
            for i in rng.sample(ok, min(k, len(ok))) + rng.sample(bad, min(k, len(bad))):
                r[i] = not r[i]
            right[m] = r
        if m != twin or public:
            q = rng.uniform(0.5, 0.9)
            right[m] = {i: rng.random() < q for i in ids}
    extra = "other" if not binary else None
    ent = {"name": name, "gold": "%s/gold.csv" % name, "baseline": base,
           "task": "binary" if binary else "multiclass"}
    if binary:
        ent["positive"] = classes[1]
    files = {}
    gid, glab = ("id", "label") if not messy else (messy_name(rng, rng.choice(ID_ALIASES)), messy_name(rng, rng.choice(GOLD_ALIASES)))
    grows = [(messy_text(rng, i) if messy else i, messy_text(rng, gold[i]) if messy else gold[i]) for i in ids]
    files[ent["gold"]] = csv_bytes([gid, glab], grows)
    codes = None
    if messy and rng.random() < 0.75:
        codes = {c: str(k) for k, c in enumerate(classes)}
        files["%s/label_map.json" % name] = json.dumps(
            {v: rng.choice([c, c.title(), c.upper()]) for c, v in codes.items()}, indent=1).encode()
    for m in models:
        wrong = [i for i in ids if not right[m][i]]
        missing = set(rng.sample(wrong, min(len(wrong), rng.randint(1, 3))))
        grid = 0.05 if edges and rng.random() < 0.6 else 0.01
        logit = binary and messy and rng.random() < 0.4
        rows = []
        for i in ids:
            if i in missing:
                continue
            if right[m][i]:
                lab = gold[i]
            elif binary:
                lab = classes[1 - classes.index(gold[i])]
            elif m != base and rng.random() < 0.25:
                lab = extra
            else:
                lab = rng.choice([c for c in classes if c != gold[i]])
            cell = lab
            if codes is not None and lab in codes:
                cell = codes[lab]
                if rng.random() < 0.3:
                    cell = " %s " % cell
            elif messy:
                cell = messy_text(rng, lab)
            row = [messy_text(rng, i) if messy else i, cell]
            if binary:
                if lab == classes[1]:
                    p = quantised(rng, grid, 0.45, 1.0)
                else:
                    p = quantised(rng, grid, 0.0, 0.6)
                if public:
                    p = min(p, 0.95)
                elif lab == classes[1] and rng.random() < 0.12:
                    p = 1.0
                if logit:
                    p = min(0.99, max(0.01, round(p, 2)))
                    row.append("%.3f" % math.log(p / (1 - p)))
                else:
                    row.append(("%.2f" % p) if rng.random() < 0.8 else repr(p))
            rows.append(row)
        if messy:
            # Stale rows before an id's real row: the last row of an id wins.
            for i in rng.sample([i for i in ids if i not in missing], 2):
                at = [k for k, r in enumerate(rows) if r[0].strip().lower() == i][-1]
                stale = [i, classes[0]] + (["0.5"] if binary else [])
                rows.insert(rng.randint(0, at), stale)
            rows.append(["zz-%04d" % rng.randint(0, 9999), classes[0]] + (["0.9"] if binary else []))
        hdr = ["id", "pred"]
        if messy:
            hdr = [messy_name(rng, rng.choice(ID_ALIASES)), messy_name(rng, rng.choice(PRED_ALIASES))]
        if binary:
            hdr.append("logit" if logit else (messy_name(rng, rng.choice(PROB_ALIASES)) if messy else "score"))
        data = csv_bytes(hdr, rows)
        fname = "%s/preds/%s.csv" % (name, m)
        if messy and rng.random() < 0.5:
            data, fname = gzip.compress(data, mtime=0), fname + ".gz"
        files[fname] = data
    files["%s/preds/README.md" % name] = b"exported from the training cluster; one file per model\n"
    if messy:
        files["%s/preds/old-run.csv.bak" % name] = b"id,pred\n"
    return ent, files


def build(rng, kind, public=False):
    """kind: binary | multiclass | messy | mixed | paper. Returns {relative path: bytes}.
    public: the examples' gentler releases (no balanced twin model, no probability above 0.95)."""
    if kind == "binary":
        plan = [(True, False, True), (True, False, True)]
    elif kind == "multiclass":
        plan = [(False, False, False), (False, False, False)]
    elif kind == "messy":
        plan = [(True, True, True), (False, True, False)]
    elif kind == "paper":
        plan = [(True, True, True), (False, True, False), (True, False, True)]
    else:
        plan = [(True, rng.random() < 0.5, True), (False, rng.random() < 0.5, False)]
    names = rng.sample(NAMES, len(plan))
    cfg, files = [], {}
    for name, (binary, messy, edges) in zip(names, plan):
        ent, f = dataset(rng, name, binary, messy, edges, public)
        cfg.append(ent)
        files.update(f)
    files["datasets.json"] = json.dumps({"datasets": cfg}, indent=1).encode()
    return files


def plant_claims(rng, table, variants):
    """A claims file: the right table with one planted mistake in most rows.

    table: [(dataset, model, {column: formatted value})]; variants(dataset, model) gives
    {"accuracy": v, "macro_f1": v, "auroc": v, "mcnemar_p": v} (wrong-method values or None)."""
    cols = ["dataset", "model", "n", "accuracy", "macro_f1", "weighted_f1", "auroc", "ap", "ece", "mcnemar_p"]
    rows = []
    kinds = ["none", "n", "acc", "macro", "auroc", "p", "typo", "drop", "two", "two"]
    for ds, model, cells in table:
        cells = dict(cells)
        alt = variants(ds, model)
        kind = rng.choice(kinds)
        if kind == "two":
            # Two mistakes in one row: a wrong n or accuracy, and a mistyped later cell.
            later = [c for c in ("ap", "ece", "mcnemar_p", "weighted_f1") if cells[c]]
            col = rng.choice(later)
            cells[col] = ("%.6f" if col != "mcnemar_p" else "%.6g") % (float(cells[col]) * 0.9)
            kind = rng.choice(["n", "acc"])
        if kind == "n":
            cells["n"] = str(int(cells["n"]) + rng.choice([-2, -1, 1]))
        elif kind == "acc" and alt.get("accuracy") is not None:
            cells["accuracy"] = "%.6f" % alt["accuracy"]
        elif kind == "macro" and alt.get("macro_f1") is not None:
            cells["macro_f1"] = "%.6f" % alt["macro_f1"]
        elif kind == "auroc" and alt.get("auroc") is not None:
            cells["auroc"] = "%.6f" % alt["auroc"]
        elif kind == "p" and alt.get("mcnemar_p") is not None:
            cells["mcnemar_p"] = "%.6g" % alt["mcnemar_p"]
        elif kind == "typo":
            col = rng.choice([c for c in ("weighted_f1", "ap", "ece", "accuracy") if cells[c]])
            v = float(cells[col])
            cells[col] = "%.6f" % (v + rng.choice([-1, 1]) * rng.choice([0.01, 0.002, 0.1]) if v < 0.8 else v - 0.05)
        elif kind == "drop":
            continue
        rows.append([ds, model] + [cells[c] for c in cols[2:]])
    if table and rng.random() < 0.8:
        ds = table[0][0]
        rows.append([ds, "ensemble-avg"] + [table[0][2][c] for c in cols[2:]])
    return csv_bytes(cols, rows)
