"""Grades /app/ridgecv.py against the reference protocol run on the same fresh data."""
import csv, json, math, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "ridgecv.py")
REF = "/tests/ref_ridgecv.py"
picks = []


def logscore(rel, tol=1e-6, cut=1e-2):
    if rel is None or rel != rel:
        return 0.0
    if rel <= tol:
        return 1.0
    if rel >= cut:
        return 0.0
    return (math.log10(cut) - math.log10(rel)) / (math.log10(cut) - math.log10(tol))


def read(out):
    try:
        with open(os.path.join(out, "table.csv"), newline="") as f:
            t = {(r["feature_set"], float(r["lambda"])): float(r["cv_rmse"]) for r in csv.DictReader(f)}
    except Exception:
        t = {}
    try:
        b = {k: float(v) for k, v in json.load(open(os.path.join(out, "best.json"))).items()}
    except Exception:
        b = {}
    return t, b


def compare(want, got, collect=True):
    (wt, wb), (gt, gb) = want, got
    cells = [logscore(abs(gt[k] - v) / v if k in gt else None) for k, v in wt.items()]
    for name, lam in wb.items():
        best = wt[(name, lam)]
        pick = gb.get(name)
        ok = pick is not None and (name, pick) in wt and wt[(name, pick)] <= best * (1 + 1e-9)
        if collect:
            picks.append(ok)
    return sum(cells) / max(len(wt), len(gt), 1)


def run_case(tag, files):
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    run(["python3", REF, d, d + "-ref"], timeout=60)
    code, _, err = run(["python3", TOOL, d, d + "-out"], timeout=30)
    s = compare(read(d + "-ref"), read(d + "-out"))
    return s, "%s: %.3f (exit %s)%s" % (tag, s, code, (" " + err.strip()[-100:]) if code else "")


def hidden(kind, n):
    def fn():
        rng = random.Random("%d*%s" % (SEED, kind))
        res = [run_case("%s%d" % (kind, i), gen.build(rng, kind)) for i in range(n)]
        return sum(r[0] for r in res) / n, "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        d = os.path.join(WORK, "examples", ex)
        out = os.path.join(TMP, ex + "-out")
        run(["python3", TOOL, os.path.join(d, "input"), out], timeout=30)
        want, got = read(os.path.join(d, "expected")), read(out)
        ok.append(compare(want, got, collect=False) == 1.0 and got[1] == want[1])
    return float(all(ok)), "examples right: %s" % ok


g.check("public_examples", public)
g.check("hidden_plain", hidden("plain", 2))
g.check("hidden_missing", hidden("missing", 2))
g.check("hidden_categorical", hidden("categorical", 2))
g.check("hidden_formats", hidden("formats", 2))
g.check("model_selection", lambda: (sum(picks) / max(1, len(picks)), "%d of %d best-lambda picks right" % (sum(picks), len(picks))))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
