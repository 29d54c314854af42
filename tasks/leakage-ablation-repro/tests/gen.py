"""Hidden studies and run logs for the grader, from a random.Random.

A study is a data.csv text and a configs.json spec; the expected table comes from ref.py (the
grader's own column-wise reading of the protocol), and the generator redraws any study on which
some decision (neighbour cut, selection cut, posterior argmax) is closer than MARGIN, so that no
expected prediction depends on the order of floating-point sums. Run logs are planted: each gets a
plan of faults, and its expected reason codes are derived from what was written.
"""
import hashlib, json, math
import ref

MARGIN = 1e-8
FEATURES = ["f_age", "f_bmi", "f_crp", "f_hb", "f_wbc", "f_sbp", "f_dbp", "f_glucose", "f_chol",
            "f_alt", "f_creat", "f_ferritin", "f_ldh", "f_plt"]
POST = ["followup_days", "days_to_outcome", "discharge_score", "event_lag", "recovery_weeks"]
CLASSES = [["case", "control"], ["neg", "pos"], ["high", "low", "mid"], ["A", "B", "C"],
           ["mild", "severe"], ["early", "late", "none"]]


def _fmt(v, scale):
    dec = max(0, 4 - int(math.floor(math.log10(scale))))
    return "%.*f" % (dec, v)


def draw_study(rng, kind, tokens=("", "NA", "?")):
    classes = list(rng.choice(CLASSES))
    nc = len(classes)
    groups_kind = kind == "groups"
    n_subj = rng.randint(26, 34) if groups_kind else rng.randint(30, 42)
    p = {"groups": rng.randint(4, 6), "prep": rng.randint(4, 6), "select": rng.randint(6, 8),
         "audit": rng.randint(4, 5), "public": rng.randint(4, 5)}[kind]
    k = rng.randint(3, 6)
    feats = rng.sample(FEATURES, p)
    scales = [10 ** rng.uniform(-1, 2.5) for _ in feats]
    locs = [s * rng.uniform(-3, 6) for s in scales]
    strength = []
    for j in range(p):
        if kind == "select":
            strength.append(rng.uniform(0.25, 0.7))
        else:
            strength.append(rng.uniform(0.6, 1.4) if rng.random() < 0.6 else rng.uniform(0.0, 0.2))
    centre = [[strength[j] * rng.gauss(0, 1) for j in range(p)] for _ in range(nc)]
    sites = ["S%d" % (i + 1) for i in range(3)]
    site_off = {s: [rng.gauss(0, 0.7) for _ in range(p)] for s in sites}
    miss = {"prep": rng.uniform(0.12, 0.2), "audit": rng.uniform(0.08, 0.14)}.get(kind, 0.03)
    post = rng.choice(POST)
    rows = []
    subjects = ["P%03d" % i for i in rng.sample(range(1, 1000), n_subj)]
    for si, sub in enumerate(subjects):
        c = si % nc if si < 2 * nc else rng.randrange(nc)
        site = rng.choice(sites)
        eff = [rng.gauss(0, 1.2 if groups_kind else 0.8) for _ in range(p)]
        visits = rng.randint(3, 6) if groups_kind else rng.randint(1, 4)
        post_base = c * 30 + rng.randint(0, 20)
        for v in range(visits):
            cells = {}
            for j, f in enumerate(feats):
                z = centre[c][j] + site_off[site][j] + eff[j] + rng.gauss(0, 0.12 if groups_kind else 0.35)
                if kind == "prep" and j == 0 and rng.random() < 0.5:
                    z += 2.5 * (1 if c == 0 else -1) * strength[j]
                val = locs[j] + scales[j] * z
                cells[f] = rng.choice(tokens) if rng.random() < miss else _fmt(val, scales[j])
            cells[post] = str(post_base + rng.randint(0, 4) * (v + 1))
            cells["visit"] = str(v + 1)
            cells["site"] = site
            cells["subject"] = sub
            cells["label"] = classes[c]
            rows.append(cells)
    rng.shuffle(rows)
    # A few rows without a label (dropped before anything else); one is a subject's first row.
    for _ in range(rng.randint(1, 3)):
        rng.choice(rows)["label"] = rng.choice(["", "NA"])
    if groups_kind:
        rows[0]["label"] = rng.choice(["", "NA"])
    ids = rng.sample(range(10000, 99999), len(rows))
    for r, i in zip(rows, ids):
        r["record_id"] = "R%d" % i
    middle = feats + [post]
    rng.shuffle(middle)
    if rng.random() < 0.5:
        middle.insert(rng.randrange(len(middle) + 1), "visit")
    head = ["record_id", "subject", "site"] + middle
    head.insert(rng.choice([2, 3, len(head)]), "label")
    lines = [",".join(head)] + [",".join(r.get(h, "") for h in head) for r in rows]
    text = "\n".join(lines) + "\n"
    spec = {"folds": k, "configs": configs_for(rng, kind)}
    return text, spec, post


def configs_for(rng, kind):
    if kind == "groups":
        raw = [("knn", 1, True, None), ("knn", rng.choice([3, 5]), True, None), ("gnb", 0, False, None),
               ("knn", 3, False, None), ("knn", 3, True, 2)]
    elif kind == "prep":
        raw = [("knn", 1, True, None), ("knn", 3, True, None), ("knn", rng.choice([5, 7]), True, None),
               ("gnb", 0, True, None), ("gnb", 0, False, 2)]
    elif kind == "select":
        raw = [("knn", 3, True, 2), ("knn", 1, True, 3), ("gnb", 0, False, 2), ("gnb", 0, True, 1),
               ("knn", 5, True, 4)]
    else:
        raw = [("knn", 1, True, None), ("knn", 3, True, 2), ("gnb", 0, False, None), ("knn", 5, True, None),
               ("gnb", 0, True, 3)]
    out = []
    for model, k, scale, sel in raw:
        name = ("knn%d" % k if model == "knn" else "gnb") + ("_std" if scale else "_raw") + \
            ("_sel%d" % sel if sel else "")
        cfg = {"name": name, "model": model}
        if model == "knn":
            cfg["k"] = k
        cfg["scale"] = scale
        if sel:
            cfg["select"] = sel
        out.append(cfg)
    return out


def expected_table(text, spec):
    """[(name, accuracy, macro_f1)] and the smallest decision margin over all configurations."""
    st = ref.study_of(text)
    rows, low = [], math.inf
    for cfg in spec["configs"]:
        pred, m = ref.predictions(st, cfg, int(spec["folds"]))
        low = min(low, m)
        acc, f1 = ref.scores(st.y, pred)
        rows.append((cfg["name"], acc, f1))
    return rows, low


def study(rng, kind, tokens=("", "NA", "?")):
    """A study whose every decision clears MARGIN: (text, spec, post column, expected rows)."""
    for _ in range(40):
        text, spec, post = draw_study(rng, kind, tokens)
        rows, low = expected_table(text, spec)
        if low > MARGIN:
            return text, spec, post, rows
    raise RuntimeError("no study with clear decisions in 40 draws")


# ---- run logs ---------------------------------------------------------------------------------

PLANS = [
    [], [], ["data"], ["plain"], ["plain", "honest"], ["regroup"], ["leak"], ["leak", "inflate"],
    ["forbidden"], ["metric"], ["within"], ["unlabelled"], ["leak", "plain"], ["forbidden", "leak"],
    ["forbidden", "plain"], ["forbidden", "inflate"], ["regroup", "leak"], ["regroup", "inflate"],
]
AUTHORS = ["mkowalski", "a.osei", "jtanaka", "lfernandez", "r.iyer", "snovak", "hberg", "c.dubois"]


def _stats(st, features, fold_lists, everything=False):
    out = []
    for fl in fold_lists:
        test = None if everything else frozenset(fl)
        mean, sd = {}, {}
        for c in features:
            # The 18 logs of a study (each written, then checked by reasons_of) mostly share their
            # folds and columns: each (left-out rows, column) statistic is computed once per study.
            key = ("fill_stats", test, c)
            if key not in st.memo:
                col = st.column(c)
                st.memo[key] = ref.fill_stats([col[i] for i, rid in enumerate(st.ids)
                                               if test is None or rid not in test])
            mu, s = st.memo[key]
            mean[c], sd[c] = float("%.10g" % mu), float("%.10g" % s)
        out.append({"mean": mean, "sd": sd})
    return out


def _lists(st, fold_of, k):
    return [[st.ids[i] for i in range(st.n) if fold_of[i] == f] for f in range(k)]


def run_logs(rng, text, spec, post, n_logs=None):
    """Planted logs: [(file name, json bytes)], {run_id: sorted reason codes}."""
    st = ref.study_of(text)
    k = int(spec["folds"])
    sha = hashlib.sha256(text.encode()).hexdigest()
    proto_of = ref.folds_of(st.subjects, k)
    proto = _lists(st, proto_of, k)
    truth = {}
    for cfg in spec["configs"]:
        pred, _ = ref.predictions(st, cfg, k)
        truth[cfg["name"]] = ref.scores(st.y, pred)
    plans = list(PLANS)
    rng.shuffle(plans)
    if n_logs:
        plans = plans[:n_logs]
    files, expected = [], {}
    ids = rng.sample(range(100, 999), len(plans))
    for plan, num in zip(plans, ids):
        run_id = "run-%d" % num
        for _ in range(20):
            log = _one_log(rng, st, text, spec, post, sha, proto, truth, plan, run_id)
            try:
                expected[run_id] = reasons_of(st, sha, spec, truth, proto, log)
                break
            except ValueError:
                continue   # a number too close to a tolerance: draw this log again
        else:
            raise RuntimeError("no unambiguous log for plan %s" % plan)
        files.append(("%s.json" % run_id, (json.dumps(log, indent=1) + "\n").encode()))
    return files, expected


def _one_log(rng, st, text, spec, post, sha, proto, truth, plan, run_id):
    k = int(spec["folds"])
    cfg = rng.choice(spec["configs"])
    acc, f1 = truth[cfg["name"]]
    features = list(st.features)
    fold_lists = [list(f) for f in proto]
    if "plain" in plan:
        fold_lists = _lists(st, [i % k for i in range(st.n)], k)
    if "regroup" in plan:
        order = sorted(set(st.subjects))
        rank = {s: i for i, s in enumerate(order)}
        of = [rank[s] % k for s in st.subjects]
        fold_lists = _lists(st, of, k)
        pred, _ = ref.predictions(st, cfg, k, of)
        acc, f1 = ref.scores(st.y, pred)
    if "plain" in plan and "honest" in plan:
        pred, _ = ref.predictions(st, cfg, k, [i % k for i in range(st.n)])
        acc, f1 = ref.scores(st.y, pred)
    if "unlabelled" in plan:
        grid = text.splitlines()
        head = grid[0].split(",")
        lab, rid = head.index("label"), head.index("record_id")
        extra = [r.split(",")[rid] for r in grid[1:] if r.split(",")[lab] in ("", "NA")]
        fold_lists[rng.randrange(k)].append(extra[0])
    if "forbidden" in plan:
        features.insert(rng.randrange(len(features) + 1), post)
        acc, f1 = min(1.0, acc + 0.08), min(1.0, f1 + 0.09)
    stats = _stats(st, features, fold_lists, everything="leak" in plan)
    if "inflate" in plan or ("leak" in plan and "plain" in plan):
        acc, f1 = min(1.0, acc + rng.randint(2, 5) / st.n), min(1.0, f1 + rng.randint(2, 5) / st.n)
    if "plain" in plan and "honest" not in plan:
        acc = min(1.0, acc + rng.randint(3, 8) / st.n)
    if "metric" in plan:
        if rng.random() < 0.5:
            acc = acc - rng.randint(1, 3) / st.n
        else:
            f1 = f1 + rng.choice([-1, 1]) * rng.uniform(0.002, 0.02)
    if "within" in plan:
        acc = acc + rng.choice([-1, 1]) * 0.00004
    data_sha = sha
    if "data" in plan:
        data_sha = hashlib.sha256(text.replace("\n", "\r\n").encode()).hexdigest()
    log = {
        "run_id": run_id,
        "submitted_by": rng.choice(AUTHORS),
        "data_sha256": data_sha,
        "config": cfg,
        "features": features,
        "folds": fold_lists,
        "train_stats": stats,
        "metrics": {"accuracy": round(acc, 4) if "within" not in plan else round(acc, 6),
                    "macro_f1": round(f1, 4)},
    }
    return log


def reasons_of(st, sha, spec, truth, proto, log):
    """The codes a log earns, derived from what was written (PROTOCOL.md section 5)."""
    if log["data_sha256"] != sha:
        return ["DATA_MISMATCH"]
    out = set()
    forbidden = any(c not in st.features for c in log["features"])
    if forbidden:
        out.add("FORBIDDEN_FEATURE")
    if [sorted(f) for f in log["folds"]] != [sorted(f) for f in proto]:
        out.add("FOLD_MISMATCH")
    subj = dict(zip(st.ids, st.subjects))
    seen = {}
    for fi, f in enumerate(log["folds"]):
        for rid in f:
            if rid in subj:
                seen.setdefault(subj[rid], set()).add(fi)
    if any(len(v) > 1 for v in seen.values()):
        out.add("GROUP_SPLIT")
    honest = _stats(st, log["features"], log["folds"])
    clear = unsure = False
    for got, want in zip(log["train_stats"], honest):
        for part in ("mean", "sd"):
            for c, w in want[part].items():
                d, tol = abs(got[part][c] - w), 1e-6 * abs(w) + 1e-9
                clear = clear or d > 10 * tol
                unsure = unsure or 0.01 * tol < d <= 10 * tol
    if clear:
        out.add("PREP_LEAK")
    elif unsure:
        raise ValueError("ambiguous statistic in %s" % log["run_id"])
    if not forbidden:
        acc, f1 = truth[log["config"]["name"]]
        clear = unsure = False
        for got, want in ((log["metrics"]["accuracy"], acc), (log["metrics"]["macro_f1"], f1)):
            d = abs(got - want)
            clear = clear or d > 1.5e-4
            unsure = unsure or 0.9e-4 < d <= 1.5e-4
        if clear:
            out.add("METRIC_MISMATCH")
        elif unsure:
            raise ValueError("ambiguous metric in %s" % log["run_id"])
    return sorted(out)
