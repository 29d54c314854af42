"""`audit`: checks another group's claimed table against the recomputed one (METRICS.md section 8)."""
import csv
from math import comb

from . import classify, ranking, table
from .reader import read_rows

CHECKED = ["n", "accuracy", "macro_f1", "weighted_f1", "auroc", "ap", "ece", "mcnemar_p"]
TOL = 1e-6
P_REL = 1e-4


def close(claim, value, column):
    if column == "mcnemar_p":
        return abs(claim - value) <= P_REL * abs(value)
    return abs(claim - value) <= TOL


def as_number(text):
    try:
        return float(text)
    except ValueError:
        return None


def variants(ds, model, column):
    """The value each known mistake would have produced for this cell, with its reason code."""
    preds = ds.models[model]
    pairs = classify.aligned(ds.gold, preds)
    if column == "accuracy":
        got = [(g, p) for g, p in pairs if p is not None]
        if got:
            return "DROPPED_MISSING", sum(1 for g, p in got if g == p) / len(got)
    if column == "macro_f1":
        classes = sorted({g for g, _ in pairs} | {p for _, p in pairs if p is not None})
        f = classify.per_class_f1(pairs, classes)
        return "EXTRA_CLASSES", sum(f.values()) / len(f)
    if column == "auroc" and ds.task == "binary":
        items = ranking.scored(ds.gold, preds, ds.positive)
        pos = [p for p, y in items if y]
        neg = [p for p, y in items if not y]
        if pos and neg:
            wins = sum(1 for p in pos for q in neg if p > q)
            return "TIES_AS_LOSS", wins / (len(pos) * len(neg))
    if column == "mcnemar_p" and model != ds.baseline:
        base = classify.aligned(ds.gold, ds.models[ds.baseline])
        b = sum(1 for (g, p), (_, q) in zip(base, pairs) if p == g and q != g)
        c = sum(1 for (g, p), (_, q) in zip(base, pairs) if p != g and q == g)
        if b + c:
            return "ONE_SIDED", min(1.0, sum(comb(b + c, k) for k in range(min(b, c) + 1)) / 2.0 ** (b + c))
    return None, None


def finding(ds, row, claim):
    for column in CHECKED:
        text = (claim.get(column) or "").strip()
        value = row[column]
        if column == "n":
            if text != str(value):
                return column, "WRONG_N"
            continue
        if value is None and text == "":
            continue
        number = as_number(text) if text else None
        if value is not None and number is not None and close(number, value, column):
            continue
        if number is not None:
            why, alt = variants(ds, row["model"], column)
            if why is not None and close(number, alt, column):
                return column, why
        return column, "VALUE_MISMATCH"
    return None


def run(datasets, claims_path, out_path):
    rows = {(r["dataset"], r["model"]): r for r in table.compute(datasets)}
    by_name = {ds.name: ds for ds in datasets}
    header, body = read_rows(claims_path)
    claims = {}
    for r in body:
        rec = {h: (r[i] if i < len(r) else "") for i, h in enumerate(header)}
        claims[(rec.get("dataset", "").strip(), rec.get("model", "").strip())] = rec
    out = []
    for key in sorted(set(rows) | set(claims)):
        if key not in rows:
            out.append([key[0], key[1], "", "UNKNOWN_ROW", "", ""])
        elif key not in claims:
            out.append([key[0], key[1], "", "MISSING_ROW", "", ""])
        else:
            hit = finding(by_name[key[0]], rows[key], claims[key])
            if hit:
                column, why = hit
                out.append([key[0], key[1], column, why, (claims[key].get(column) or "").strip(),
                            table.fmt(column, rows[key][column])])
    with open(out_path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["dataset", "model", "column", "reason", "claimed", "correct"])
        w.writerows(out)
