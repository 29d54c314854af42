"""Seeded study folders (study.json + data release) and claims files with planted mistakes.

build(rng, kind) -> {relative path: bytes}. Kinds: folds, prep, select, formats, mixed.
plant_claims(rng, folder, study_files) -> (claims bytes, {(outcome, fs): planted code or None}).
"""
import gzip
import json

import ref

SITES = ["Bern", "Aarau", "Chur", "Basel", "Zug"]


def subject_ids(rng, s, style):
    nums = rng.sample(range(1, 140), s)
    if style == "padded":
        return ["S%03d" % v for v in nums]
    return ["P%d" % v for v in nums]


def make_rows(rng, kind, k):
    s = rng.randint(2 * k + 2, 3 * k + 3)
    ids = subject_ids(rng, s, "plain" if kind in ("folds", "mixed", "formats") else rng.choice(["plain", "padded"]))
    b = {"age": rng.uniform(0.1, 0.6), "bmi": rng.uniform(0.5, 2.0), "dose": rng.uniform(-1.5, 1.5)}
    site_eff = {x: rng.uniform(-6, 6) for x in SITES}
    weights = [rng.choice([1, 2, 3]) for _ in SITES]
    rows = []
    for sid in ids:
        eff = rng.gauss(0, 3)
        site = rng.choices(SITES[:4], weights[:4])[0]
        smoker = rng.choice(["yes", "no", "no"])
        for _ in range(rng.randint(2, 4)):
            age = rng.randint(25, 80)
            bmi = round(rng.uniform(18, 38), 1)
            dose = round(rng.uniform(0, 10), 2)
            sbp = 90 + b["age"] * age + b["bmi"] * bmi + site_eff[site] + (4 if smoker == "yes" else 0) + eff + rng.gauss(0, 4)
            ldl = 2.0 + 0.01 * age + 0.05 * b["dose"] * dose + 0.1 * site_eff[site] + 0.2 * eff + rng.gauss(0, 0.4)
            rows.append({"subject_id": sid, "age": str(age), "bmi": "%.1f" % bmi, "dose": "%.2f" % dose,
                         "site": site, "smoker": smoker, "batch": "7", "sbp": "%.1f" % sbp, "ldl": "%.3f" % ldl})
    return rows


def subject_folds(rows, k):
    order = sorted({r["subject_id"] for r in rows})
    return {sid: i % k for i, sid in enumerate(order)}


def top_tie(rows, k):
    """True when some training fold (rows with sbp) has two most frequent site levels."""
    fo = subject_folds(rows, k)
    for f in range(k):
        tally = {}
        for r in rows:
            if fo[r["subject_id"]] != f and r["site"] not in ("", "NA") and r["sbp"] not in ("", "NA"):
                tally[r["site"]] = tally.get(r["site"], 0) + 1
        if tally and list(tally.values()).count(max(tally.values())) > 1:
            return True
    return False


def draw(rng, kind, k):
    rows = make_rows(rng, kind, k)
    fo = subject_folds(rows, k)
    subjects = sorted(fo)
    tokens = ["", "NA"]
    if kind in ("prep", "mixed", "formats"):
        # a site level held by one subject only (unseen when its fold is held out)
        lone = rng.choice(subjects)
        for r in rows:
            if r["subject_id"] == lone:
                r["site"] = "Zug"
        # a column constant in every training fold but one
        special = rng.randrange(k)
        for r in rows:
            r["dose"] = "%.2f" % rng.uniform(1, 9) if fo[r["subject_id"]] == special else "0"
    if kind in ("prep", "mixed", "formats", "select"):
        rate = 0.12 if kind != "select" else 0.0
        for r in rows:
            for col in ("age", "bmi", "dose", "site"):
                if rng.random() < rate:
                    r[col] = rng.choice(tokens)
    if kind in ("folds", "mixed", "formats", "prep"):
        gone = rng.choice(subjects)
        for r in rows:
            if r["subject_id"] == gone:
                r["ldl"] = rng.choice(tokens)
            elif rng.random() < 0.06:
                r[rng.choice(["sbp", "ldl"])] = rng.choice(tokens)
    return rows


def build(rng, kind):
    k = rng.randint(3, 5)
    for _ in range(500):
        rows = draw(rng, kind, k)
        if kind not in ("prep", "mixed") or top_tie(rows, k):
            break
    else:
        raise RuntimeError("no tied reference level drawn")
    if kind in ("folds", "mixed", "formats") or rng.random() < 0.5:
        rows = rng.sample(rows, len(rows))
    else:
        rows.sort(key=lambda r: r["subject_id"])
    sets = [{"name": "base", "features": ["age", "bmi"]},
            {"name": "clinical", "features": ["age", "bmi", "dose", "site", "smoker"]}]
    if kind in ("select", "prep", "mixed"):
        sets.append({"name": "batch_only", "features": ["batch"]})
    if kind == "select":
        sets.append({"name": "site_smoker", "features": ["site", "smoker"]})
    lo = rng.choice([0.001, 0.002, 0.005, 0.01])
    hi = rng.choice([2.0, 5.0, 10.0, 20.0])
    grid = {"min": lo, "max": hi, "count": rng.randint(5, 8)}
    header = ["subject_id", "age", "bmi", "dose", "site", "smoker", "batch", "sbp", "ldl"]
    header = rng.sample(header, len(header))
    delim, comma = ",", False
    if kind == "formats":
        delim, comma = ";", True
        caps = ["", "NA", "N/A", "n/a", "Null", "nan", "?", "."]
        for r in rows:
            for c in header:
                if r[c] in ("", "NA"):
                    r[c] = rng.choice(caps)
    lines = [delim.join(h if kind != "formats" else rng.choice([h, " %s " % h]) for h in header)]
    for r in rows:
        cells = []
        for c in header:
            v = r[c]
            if comma and c in ("bmi", "dose", "sbp", "ldl") and "." in v and v != ".":
                v = v.replace(".", ",")
            cells.append(v)
        lines.append(delim.join(cells))
    eol = "\r\n" if kind == "formats" and rng.random() < 0.5 else "\n"
    data = (eol.join(lines) + eol).encode()
    name = "release.csv"
    if kind == "formats" and rng.random() < 0.6:
        data = gzip.compress(data, mtime=0)
        name = "release.csv.gz"
    study = {"data": name, "subject": "subject_id", "folds": k, "outcomes": ["sbp", "ldl"],
             "feature_sets": sets, "categorical": ["site", "smoker"], "lambda_grid": grid}
    return {"study.json": (json.dumps(study, indent=1) + "\n").encode(), name: data}


PLANTS = ["LEAKAGE", "GROUPS_SPLIT", "INTERCEPT_PENALISED", "RMSE_PER_FOLD", "WRONG_LAMBDA", "RMSE_MISMATCH", None]


def plant_claims(rng, folder, semicolon=False):
    """A claims file for the study in folder: one row per setting, most with one planted mistake."""
    base = ref.study(folder)
    opts = dict(ref.VARIANTS)
    cache = {}
    keys = list(base)
    codes = rng.sample(PLANTS, len(PLANTS))
    while len(codes) < len(keys):
        codes.append(rng.choice(PLANTS))
    out = []
    for key, code in zip(keys, codes):
        n, cc, (lmin, l1, c1) = base[key]
        lam, cv = l1, c1
        if code in opts:
            if code not in cache:
                cache[code] = ref.study(folder, opts[code])
            _, _, (_, lam, cv) = cache[code][key]
        elif code == "WRONG_LAMBDA":
            others = [p for p in cc if p[0] != l1]
            p = [q for q in others if q[0] == lmin] or others
            lam, cv = p[0][0], p[0][1]
        elif code == "RMSE_MISMATCH":
            cv = c1 * (1 + rng.choice([-1, 1]) * rng.uniform(0.01, 0.08))
        out.append((key[0], key[1], lam, cv))
    out = rng.sample(out, len(out))
    d = ";" if semicolon else ","

    def f(x):
        t = "%.12g" % x
        return t.replace(".", ",") if semicolon else t
    text = d.join(["outcome", "feature_set", "lambda", "cv_rmse"]) + "\n"
    text += "".join(d.join([a, b, f(lam), f(cv)]) + "\n" for a, b, lam, cv in out)
    return text.encode(), [(a, b, float(f(lam).replace(",", ".")), float(f(cv).replace(",", "."))) for a, b, lam, cv in out]
