"""Seeded regression data sets with fold assignments and a CV config."""
import csv, gzip, io, json, math

REGIONS = ["north", "south", "east", "west", "central"]


def build(rng, kind):
    """kind: plain | missing | categorical | formats. Returns files."""
    n = rng.randint(70, 110)
    k = rng.randint(4, 5)
    p = 5
    beta = [rng.uniform(-3, 3) for _ in range(p)]
    reg_eff = {r: rng.uniform(-4, 4) for r in REGIONS}
    scales = [rng.choice([1, 10, 100, 0.01]) for _ in range(p)]
    fold_labels = [str(i + 1) for i in range(k)] if kind != "formats" else rng.sample(["A", "B", "C", "D", "E", "F"], k)
    rows = []
    for i in range(n):
        z = [rng.gauss(0, 1) for _ in range(p)]
        z[1] = 0.7 * z[0] + 0.3 * z[1]
        reg = rng.choice(REGIONS[:4]) if rng.random() > 0.04 else "islands"
        y = 5 + sum(b * v for b, v in zip(beta, z)) + (reg_eff.get(reg, 0) if kind in ("categorical", "formats") else 0) + rng.gauss(0, 1)
        row = {"x%d" % (j + 1): "%.6g" % (z[j] * scales[j]) for j in range(p)}
        row["region"] = reg
        row["y"] = "%.6f" % y
        row["fold"] = fold_labels[i % k] if rng.random() < 0.85 else rng.choice(fold_labels)
        rows.append(row)
    if kind == "missing":
        for r in rows:
            for j in range(p):
                if rng.random() < 0.07:
                    r["x%d" % (j + 1)] = rng.choice(["", "NA", "nan", "?"])
            if rng.random() < 0.04:
                r["y"] = rng.choice(["", "NA"])
    if kind == "categorical":
        # A level that exists only in one fold (unseen when that fold is held out) and missing levels.
        only = rng.choice(fold_labels)
        for r in rows:
            if r["fold"] == only and rng.random() < 0.3:
                r["region"] = "central"
            if rng.random() < 0.05:
                r["region"] = rng.choice(["", "NA"])
        # A column that is constant within some training folds.
        for r in rows:
            r["x5"] = "0" if r["fold"] != only else "%.3f" % rng.uniform(-1, 1)
    feature_sets = {"base": ["x1", "x2"], "full": ["x1", "x2", "x3", "x4", "x5"]}
    cats = []
    if kind in ("categorical", "formats"):
        feature_sets["full_region"] = ["x1", "x2", "x3", "x4", "x5", "region"]
        cats = ["region"]
    tgt, fc = "y", "fold"
    if kind == "formats":
        tgt, fc = rng.choice(["target", "price", "y_obs"]), rng.choice(["cv_fold", "split"])
        for r in rows:
            r[tgt] = r.pop("y")
            r[fc] = r.pop("fold")
    lambdas = sorted(rng.sample([0.001, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0], 4))
    header = list(rows[0].keys())
    rng.shuffle(header)
    b = io.StringIO()
    delim = ";" if kind == "formats" and rng.random() < 0.5 else ","
    w = csv.DictWriter(b, fieldnames=header, delimiter=delim, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    data = b.getvalue().encode()
    name = "data.csv"
    if kind == "formats" and rng.random() < 0.6:
        data, name = gzip.compress(data, mtime=0), "measurements.csv.gz"
    cfg = {"data": name, "target": tgt, "fold_column": fc, "feature_sets": feature_sets, "lambdas": lambdas, "categorical": cats}
    return {name: data, "config.json": json.dumps(cfg, indent=1).encode()}
