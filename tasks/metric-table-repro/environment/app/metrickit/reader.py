"""Reads a release: datasets.json, gold files and prediction dumps (.csv or .csv.gz)."""
import csv
import gzip
import io
import json
import math
import os

from .labels import apply_map, load_label_map, norm

ID_COLS = ("id", "example_id", "uid", "ex_id")
GOLD_COLS = ("label", "gold", "y_true", "target")
PRED_COLS = ("pred", "prediction", "y_pred", "label_pred")
PROB_COLS = ("score", "prob", "p_pos", "prob_pos")


class Dataset:
    def __init__(self, name, task, positive, baseline, gold, models):
        self.name = name
        self.task = task
        self.positive = positive
        self.baseline = baseline
        self.gold = gold          # [(id, label)] in file order
        self.models = models      # {model: {id: (label, prob or None)}}


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8-sig")


def read_rows(path):
    reader = csv.reader(io.StringIO(read_text(path)))
    rows = [r for r in reader if r and any(c.strip() for c in r)]
    if not rows:
        return [], []
    return rows[0], rows[1:]


def find_col(header, names, what, path):
    for i, h in enumerate(header):
        if h in names:
            return i
    raise ValueError("%s: no %s column in %s" % (path, what, header))


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(x))


def read_gold(path):
    header, rows = read_rows(path)
    i = find_col(header, ID_COLS, "id", path)
    j = find_col(header, GOLD_COLS, "label", path)
    return [(norm(r[i]), norm(r[j])) for r in rows]


def read_preds(path, mapping, binary):
    header, rows = read_rows(path)
    i = find_col(header, ID_COLS, "id", path)
    j = find_col(header, PRED_COLS, "prediction", path)
    k, logit = None, False
    if binary:
        for c, h in enumerate(header):
            if h in PROB_COLS:
                k = c
                break
        if k is None:
            k = find_col(header, ("logit",), "score", path)
            logit = True
    out = {}
    for r in rows:
        prob = None
        if k is not None:
            prob = float(r[k])
            if logit:
                prob = sigmoid(prob)
        out.setdefault(norm(r[i]), (apply_map(r[j], mapping), prob))
    return out


def model_name(fname):
    stem, ext = os.path.splitext(fname)
    if ext in (".csv", ".gz"):
        return stem
    return None


def load_release(data_dir):
    with open(os.path.join(data_dir, "datasets.json"), encoding="utf-8") as f:
        spec = json.load(f)
    out = []
    for ent in spec["datasets"]:
        name = ent["name"]
        ddir = os.path.join(data_dir, name)
        binary = ent["task"] == "binary"
        mapping = load_label_map(ddir)
        gold = read_gold(os.path.join(data_dir, ent["gold"]))
        models = {}
        pdir = os.path.join(ddir, "preds")
        for fname in sorted(os.listdir(pdir)):
            m = model_name(fname)
            if m is None:
                continue
            models[m] = read_preds(os.path.join(pdir, fname), mapping, binary)
        out.append(Dataset(name, ent["task"], norm(ent.get("positive")) if binary else None,
                           ent["baseline"], gold, models))
    return out
