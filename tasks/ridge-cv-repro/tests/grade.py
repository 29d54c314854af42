"""Grades /app/ridgecv.py against the reference protocol run on the same fresh data."""
import csv, json, math, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "ridgecv.py")
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
REF = "/tests/ref_ridgecv.py"
REF_TMP = tempfile.mkdtemp(prefix="ref-")
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


def reference(tag, files):
    """Writes one hidden case and runs the reference on it; its answer is kept in memory only."""
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    code, _, err = run(["python3", REF, d, os.path.join(REF_TMP, tag)], timeout=60)
    want = read(os.path.join(REF_TMP, tag))
    if code != 0 or not want[0]:
        raise RuntimeError("reference failed on %s: exit %s %s" % (tag, code, err.strip()[-200:]))
    return d, want


def prepare(kind, n):
    """Every hidden case of a kind with its reference answer, built before any submitted program runs,
    so nothing such a program does (or leaves running) can reach the answers."""
    try:
        rng = random.Random("%d*%s" % (SEED, kind))
        return [("%s%d" % (kind, i),) + reference("%s%d" % (kind, i), generate(gen.build, rng, kind)) for i in range(n)]
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def run_case(tag, d, want):
    code, _, err = run(["python3", TOOL, d, d + "-out"], timeout=30)
    s = compare(want, read(d + "-out"))
    return s, "%s: %.3f (exit %s)%s" % (tag, s, code, (" " + err.strip()[-100:]) if code else "")


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        res = [run_case(*c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        want = read(os.path.join(PUB, ex, "expected"))
        out = os.path.join(TMP, ex + "-out")
        run(["python3", TOOL, stage(ex + "/input"), out], timeout=30)
        got = read(out)
        ok.append(compare(want, got, collect=False) == 1.0 and got[1] == want[1])
    return float(all(ok)), "examples right: %s" % ok


CASES = {k: prepare(k, 2) for k in ("plain", "missing", "categorical", "formats")}
shutil.rmtree(REF_TMP, ignore_errors=True)
g.check("public_examples", public)
g.check("hidden_plain", hidden("plain"))
g.check("hidden_missing", hidden("missing"))
g.check("hidden_categorical", hidden("categorical"))
g.check("hidden_formats", hidden("formats"))
g.check("model_selection", lambda: (sum(picks) / max(1, len(picks)), "%d of %d best-lambda picks right" % (sum(picks), len(picks))))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
