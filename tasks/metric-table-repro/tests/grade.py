"""Grades /app/repro.py: every table cell is scored continuously against the ground truth."""
import csv, math, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, continuous, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "repro.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")


def stage(rel):
    """Copies a public input from the grader's copy into scratch space and returns the copy's path."""
    src, dst = os.path.join(PUB, rel), os.path.join(TMP, "public", rel)
    if os.path.isdir(src):
        shutil.copytree(src, dst, symlinks=True)
    else:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
    return dst
pv_scores, auc_scores = [], []


def cell(name, want, got):
    got = (got or "").strip()
    if want is None:
        return 1.0 if got == "" else 0.0
    try:
        v = float(got)
    except ValueError:
        return 0.0
    if name == "mcnemar_p":
        return continuous(abs(math.log10(max(v, 1e-300)) - math.log10(max(want, 1e-300))), 1e-4, 1.0)
    if name == "n":
        return float(v == want)
    return continuous(abs(v - want), 2e-6, 0.02)


def score_table(exp, out, collect=True):
    with open(out, newline="") as f:
        got = {(r.get("dataset"), r.get("model")): r for r in csv.DictReader(f)}
    total = 0.0
    for k, e in exp.items():
        r = got.get(k, {})
        cs = {c: cell(c, e[c], r.get(c)) for c in ("n", "accuracy", "macro_f1", "auroc", "mcnemar_p")}
        total += sum(cs.values()) / len(cs)
        if collect:
            if e["mcnemar_p"] is not None:
                pv_scores.append(cs["mcnemar_p"])
            if e["auroc"] is not None:
                auc_scores.append(cs["auroc"])
    return total / max(len(exp), len(got))


def run_case(tag, files, exp, collect=True):
    d = os.path.join(TMP, tag)
    for name, data in sorted(files.items()):
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    out = d + ".csv"
    code, _, err = run(["python3", TOOL, d, out], timeout=20)
    if code != 0 or not os.path.exists(out):
        if collect:
            pv_scores.extend(0.0 for e in exp.values() if e["mcnemar_p"] is not None)
            auc_scores.extend(0.0 for e in exp.values() if e["auroc"] is not None)
        return 0.0, "%s: exit %s %s" % (tag, code, err.strip()[-150:])
    s = score_table(exp, out, collect)
    return s, "%s: %.3f" % (tag, s)


def hidden(kind, n):
    def fn():
        rng = random.Random("%d#%s" % (SEED, kind))
        res = [run_case("%s%d" % (kind, i), *generate(gen.build, rng, kind)) for i in range(n)]
        return sum(r[0] for r in res) / n, "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for i, kind in ((1, "plain"), (2, "messy")):
        src = os.path.join(PUB, "example%d" % i)
        out = os.path.join(TMP, "pub%d.csv" % i)
        code, _, _ = run(["python3", TOOL, stage("example%d/data" % i), out], timeout=20)
        if code != 0 or not os.path.exists(out):
            ok.append(False)
            continue
        with open(os.path.join(src, "expected.csv"), newline="") as f:
            exp = {}
            for r in csv.DictReader(f):
                exp[(r["dataset"], r["model"])] = {c: (None if r[c] == "" else float(r[c])) for c in ("n", "accuracy", "macro_f1", "auroc", "mcnemar_p")}
        ok.append(score_table(exp, out, collect=False) >= 0.999999)
    return float(all(ok)), "examples right: %s" % ok


g.check("public_examples", public)
g.check("hidden_plain", hidden("plain", 2))
g.check("hidden_multiclass", hidden("multiclass", 2))
g.check("hidden_messy", hidden("messy", 3))
g.check("significance", lambda: (sum(pv_scores) / max(1, len(pv_scores)), "%d McNemar p-values" % len(pv_scores)))
g.check("auroc_ties", lambda: (sum(auc_scores) / max(1, len(auc_scores)), "%d AUROC cells" % len(auc_scores)))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
