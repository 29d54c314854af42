"""Audits submitted run logs against PROTOCOL.md.

    python3 audit.py DATA_DIR RUNS_DIR OUT_CSV

Writes run_id,verdict,reasons (one row per *.json log in RUNS_DIR, sorted by run_id).
"""
import csv, glob, hashlib, json, math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abl import folds, pipeline, table  # noqa: E402

STAT_TOL = 1e-6     # relative tolerance on logged training statistics (plus STAT_ABS)
STAT_ABS = 1e-9
METRIC_TOL = 1e-4   # a reported metric reproduces when within this of the re-run


def stats_of(values):
    """Mean and population sd of a column after mean imputation (over the given rows)."""
    present = [v for v in values if v is not None]
    mean = sum(present) / len(present) if present else 0.0
    filled = [mean if v is None else v for v in values]
    var = sum((v - mean) ** 2 for v in filled) / len(filled) if filled else 0.0
    return mean, math.sqrt(var)


def near(a, b):
    try:
        return abs(float(a) - b) <= STAT_TOL * abs(b) + STAT_ABS
    except (TypeError, ValueError):
        return False


class Auditor:
    def __init__(self, data_dir):
        with open(os.path.join(data_dir, "configs.json")) as f:
            self.spec = json.load(f)
        self.k = int(self.spec["folds"])
        path = os.path.join(data_dir, "data.csv")
        with open(path, "rb") as f:
            self.sha = hashlib.sha256(f.read()).hexdigest()
        self.tab = table.load(path)
        fold_of = folds.group_kfold(self.tab.groups, self.k)
        self.protocol = [set(self.tab.ids[i] for i in m) for m in folds.fold_members(fold_of, self.k)]
        self.group_of = dict(zip(self.tab.ids, self.tab.groups))
        self.cache = {}

    def rerun(self, cfg):
        key = json.dumps(cfg, sort_keys=True)
        if key not in self.cache:
            self.cache[key] = pipeline.evaluate(self.tab, cfg, self.k)
        return self.cache[key]

    def check(self, log):
        if str(log.get("data_sha256", "")).lower() != self.sha:
            return ["DATA_MISMATCH"]
        reasons = set()
        features = list(log.get("features") or [])
        forbidden = [c for c in features if c not in self.tab.feature_names]
        if forbidden:
            reasons.add("FORBIDDEN_FEATURE")
        logged = [list(f) for f in (log.get("folds") or [])]
        flat = [str(r) for f in logged for r in f]
        if len(logged) != self.k or len(flat) != len(set(flat)) or \
                any(set(map(str, f)) != p for f, p in zip(logged, self.protocol)):
            reasons.add("FOLD_MISMATCH")
        where = {}
        for fi, f in enumerate(logged):
            for r in f:
                g = self.group_of.get(str(r))
                if g is not None:
                    where.setdefault(g, set()).add(fi)
        if any(len(s) > 1 for s in where.values()):
            reasons.add("GROUP_SPLIT")
        if not self.stats_ok(log, logged, features):
            reasons.add("PREP_LEAK")
        if not forbidden:
            got = self.rerun(log.get("config") or {})
            reported = log.get("metrics") or {}
            for name in ("accuracy", "macro_f1"):
                try:
                    ok = abs(float(reported[name]) - got[name]) <= METRIC_TOL
                except (KeyError, TypeError, ValueError):
                    ok = False
                if not ok:
                    reasons.add("METRIC_MISMATCH")
        return sorted(reasons)

    def stats_ok(self, log, logged, features):
        stats = log.get("train_stats") or []
        if len(stats) != len(logged):
            return False
        try:
            cols = {c: self.tab.numeric_column(c) for c in features}
        except (KeyError, ValueError):
            return False
        for f, st in zip(logged, stats):
            test = set(map(str, f))
            train = [i for i, rid in enumerate(self.tab.ids) if rid not in test]
            for c in features:
                mean, sd = stats_of([cols[c][i] for i in train])
                if not (near(st.get("mean", {}).get(c), mean) and near(st.get("sd", {}).get(c), sd)):
                    return False
        return True


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    auditor = Auditor(argv[1])
    rows = []
    for path in sorted(glob.glob(os.path.join(argv[2], "*.json"))):
        with open(path) as f:
            log = json.load(f)
        reasons = auditor.check(log)
        rows.append((str(log.get("run_id", os.path.basename(path)[:-5])), reasons))
    rows.sort()
    out = argv[3]
    if os.path.dirname(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["run_id", "verdict", "reasons"])
        for rid, reasons in rows:
            w.writerow([rid, "fail" if reasons else "pass", ";".join(reasons)])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
