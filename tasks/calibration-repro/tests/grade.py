"""Grades /app/calibctl.py (metrics, fit, table, audit) on the shipped cases and on seeded hidden
logit files, paper configs and releases.

Expected metrics and temperatures come from ref.py (reciprocal-sum softmax, edge-counting bins,
bisection on the NLL's derivative in 1/T); audit codes from the faults gen.py planted. Nothing
here runs or copies the solution's code.
"""
import csv
import json
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import gen  # noqa: E402
import ref  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
CALIBCTL = os.path.join(WORK, "calibctl.py")
PUB = os.path.join(HERE, "examples")
FIELDS = ("accuracy", "ece", "ace", "cwece", "nll", "brier")
METRIC_TOL = 1e-6     # metrics/fit JSON: relative to max(1, |expected|)
CELL_TOL = 2e-6       # table cells written with 6 decimals
T_TOL = 2e-4          # table temperature written with 4 decimals
FIT_TOL = 1e-4        # fit: relative to max(1, T)


def write_tree(tag, files):
    root = os.path.join(TMP, tag)
    for rel in sorted(files):
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        data = files[rel] if isinstance(files[rel], bytes) else files[rel].encode()
        with open(p, "wb") as f:
            f.write(data)
        g.digest(rel.encode() + b"\0" + data)
    return root


def stage(src, tag):
    dst = os.path.join(TMP, tag)
    shutil.copytree(src, dst)
    return dst


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def read_table(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error):
        return []


def num(x):
    if isinstance(x, bool):
        return None
    if isinstance(x, (int, float)):
        return float(x)
    try:
        return float((x or "").strip())
    except (ValueError, AttributeError):
        return None


def close(got, want, tol=METRIC_TOL):
    x = num(got)
    return x is not None and abs(x - want) <= tol * max(1.0, abs(want))


def rel_ok(got, want):
    if not isinstance(got, list) or len(got) != len(want):
        return False
    for a, b in zip(got, want):
        if not isinstance(a, dict) or num(a.get("bin")) != b["bin"] or num(a.get("count")) != b["count"]:
            return False
        if not (close(a.get("lower"), b["lower"]) and close(a.get("upper"), b["upper"])):
            return False
        for key in ("accuracy", "confidence"):
            if b[key] is None:
                if a.get(key) is not None:
                    return False
            elif not close(a.get(key), b[key]):
                return False
    return True


def tail(code, err):
    return (" exit %s %s" % (code, err.strip()[-150:])) if code else ""


def metrics_score(logits_path, args, want, tag):
    out = os.path.join(TMP, tag + "-metrics.json")
    argv = ["python3", CALIBCTL, "metrics", logits_path, out, "--bins", str(args["bins"]),
            "--temperature", repr(args["temperature"]), "--split", args["split"]]
    code, _, err = run(argv, timeout=120)
    got = load_json(out)
    if not isinstance(got, dict):
        return 0.0, "no JSON" + tail(code, err)
    right = [f for f in FIELDS if close(got.get(f), want[f])]
    if rel_ok(got.get("reliability"), want["reliability"]):
        right.append("reliability")
    if num(got.get("n")) != want["n"]:
        right = []
    wrong = [f for f in FIELDS + ("reliability",) if f not in right]
    return len(right) / 7, "%d/7 right%s%s" % (len(right), (" (wrong: %s)" % ",".join(wrong)) if wrong else "", tail(code, err))


def fit_score(logits_path, want, tag):
    out = os.path.join(TMP, tag + "-fit.json")
    code, _, err = run(["python3", CALIBCTL, "fit", logits_path, out], timeout=120)
    got = load_json(out)
    if not isinstance(got, dict):
        return 0.0, "no JSON" + tail(code, err)
    t = num(got.get("temperature"))
    t_ok = t is not None and abs(t - want["temperature"]) <= FIT_TOL * max(1.0, want["temperature"])
    n_ok = close(got.get("val_nll_before"), want["val_nll_before"]) and \
        close(got.get("val_nll_after"), want["val_nll_after"], 1e-5)
    return 0.75 * t_ok + 0.25 * n_ok, "T %s (want %.6f), nll %s%s" % (t, want["temperature"], "ok" if n_ok else "wrong", tail(code, err))


TABLE_METRICS = ("ece", "ace", "cwece", "nll", "brier")


def table_score(paper_dir, runs, tag):
    """Share of the runs whose table row has every cell right."""
    out = os.path.join(TMP, tag + "-table.csv")
    code, _, err = run(["python3", CALIBCTL, "table", paper_dir, out], timeout=240)
    got = {((r.get("model") or "").strip(), (r.get("dataset") or "").strip()): r for r in read_table(out)}
    ok, bad = 0, []
    for e in runs:
        r = got.get((e["model"], e["dataset"]))
        if r is None:
            bad.append("%s/%s missing" % (e["model"], e["dataset"]))
            continue
        before = ref.metrics(e["labels"], e["logits"], e["bins"], 1.0)
        cells = {"n_test": num(r.get("n_test")) == e["n_test"],
                 "accuracy": close(r.get("accuracy"), before["accuracy"], CELL_TOL)}
        t = num(r.get("temperature"))
        cells["temperature"] = t is not None and t > 0 and abs(t - e["temperature"]) <= T_TOL
        after = ref.metrics(e["labels"], e["logits"], e["bins"], t) if cells["temperature"] else None
        for m in TABLE_METRICS:
            cells[m + "_before"] = close(r.get(m + "_before"), before[m], CELL_TOL)
            cells[m + "_after"] = after is not None and close(r.get(m + "_after"), after[m], CELL_TOL)
        wrong = [k for k, v in cells.items() if not v]
        if wrong:
            bad.append("%s/%s: %s" % (e["model"], e["dataset"], ",".join(wrong)))
        else:
            ok += 1
    return ok / len(runs), "%d/%d rows%s%s" % (ok, len(runs), (" [" + "; ".join(bad)[:300] + "]") if bad else "", tail(code, err))


def codes_of(s):
    return sorted(x.strip().lower() for x in (s or "").split(";") if x.strip())


def audit_score(root, want, tag):
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", CALIBCTL, "audit", root, out], timeout=300)
    got = {(r.get("claim") or "").strip(): r for r in read_table(out)}
    ok, bad = 0, []
    for name, codes in want.items():
        r = got.get(name)
        if r is None:
            bad.append(name + " missing")
            continue
        verdict = (r.get("verdict") or "").strip().lower()
        if codes_of(r.get("reasons")) == codes and verdict == ("fail" if codes else "pass"):
            ok += 1
        else:
            bad.append("%s %s!=%s" % (name, codes_of(r.get("reasons")), codes))
    return ok / len(want), "%d/%d claims%s%s" % (ok, len(want), (" [" + "; ".join(bad)[:300] + "]") if bad else "", tail(code, err))


def expected_audit(path):
    return {r["claim"]: codes_of(r["reasons"]) for r in read_table(path)}


def read_tree(root):
    files = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                files[os.path.relpath(p, root)] = f.read()
    return files


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def public():
    res = []
    for ex in ("example1", "example2"):
        d = stage(os.path.join(PUB, ex), "pub-" + ex)
        args = load_json(os.path.join(d, "metrics", "args.json"))
        text = read_text(os.path.join(d, "metrics", "logits.csv"))
        m, _ = metrics_score(os.path.join(d, "metrics", "logits.csv"), args, gen.expected_metrics(text, args), ex)
        f, _ = fit_score(os.path.join(d, "fit", "logits.csv"), gen.expected_fit(read_text(os.path.join(d, "fit", "logits.csv"))), ex)
        pfiles = read_tree(os.path.join(d, "table", "paper"))
        t, _ = table_score(os.path.join(d, "table", "paper"), gen.expected_table(pfiles), ex)
        a, _ = audit_score(os.path.join(d, "audit", "release"), expected_audit(os.path.join(d, "audit", "expected.csv")), ex)
        res.append(m == 1.0 and f == 1.0 and t == 1.0 and a == 1.0)
    return float(all(res)), "examples right: %s" % res


def given_work():
    p = stage(os.path.join(HERE, "paper"), "paper")
    t, m1 = table_score(p, gen.expected_table(read_tree(p)), "paper")
    r = stage(os.path.join(HERE, "release"), "release")
    a, m2 = audit_score(r, expected_audit(os.path.join(HERE, "release_expected.csv")), "release")
    return 0.5 * t + 0.5 * a, "paper table %s; shipped release %s" % (m1, m2)


def hidden_metrics():
    rng = random.Random("%d/metrics" % SEED)
    scores, msgs = [], []
    for i, kind in enumerate(("plain", "offset", "saturated", "missing", "under")):
        text, args = generate(gen.metrics_case, rng, kind)
        want = generate(gen.expected_metrics, text, args)
        root = write_tree("metrics%d" % i, {"logits.csv": text, "args": json.dumps(args)})
        s, m = metrics_score(os.path.join(root, "logits.csv"), args, want, "metrics%d" % i)
        scores.append(s)
        msgs.append("%s: %s" % (kind, m))
    return sum(scores) / len(scores), "; ".join(msgs)


def hidden_fit():
    rng = random.Random("%d/fit" % SEED)
    scores, msgs = [], []
    for i, kind in enumerate(("plain", "hot", "clamp", "offset", "under")):
        text = generate(gen.model_file, rng, kind)
        want = generate(gen.expected_fit, text)
        root = write_tree("fit%d" % i, {"logits.csv": text})
        s, m = fit_score(os.path.join(root, "logits.csv"), want, "fit%d" % i)
        scores.append(s)
        msgs.append("%s: %s" % (kind, m))
    return sum(scores) / len(scores), "; ".join(msgs)


def hidden_table():
    rng = random.Random("%d/table" % SEED)
    files = generate(gen.paper, rng, 5, ["offset", "saturated", "plain", "hot", "missing"])
    runs = generate(gen.expected_table, files)
    root = write_tree("table", files)
    return table_score(root, runs, "table")


def hidden_audit():
    rng = random.Random("%d/audit" % SEED)
    scores, msgs = [], []
    for i in range(2):
        files, want = generate(gen.release, rng, 13)
        root = write_tree("audit%d" % i, files)
        s, m = audit_score(root, want, "audit%d" % i)
        scores.append(s)
        msgs.append(m)
    return sum(scores) / len(scores), "; ".join(msgs)


g.check("public_examples", public)
g.check("given_work", given_work)
g.check("hidden_metrics", hidden_metrics)
g.check("hidden_fit", hidden_fit)
g.check("hidden_table", hidden_table)
g.check("hidden_audit", hidden_audit)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
