"""Grades /app/loan.py: schedule rows to the cent, and total interest continuously."""
import csv, json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, continuous, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "loan.py")
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
COLS = ("payment", "interest", "principal", "extra", "balance")
interest_err = []


def score_contract(e, out, stem):
    rows = e["rows"]
    try:
        with open(os.path.join(out, stem + ".csv"), newline="") as f:
            got = list(csv.DictReader(f))
    except Exception:
        got = []
    ok = 0
    for r, gr in zip(rows, got):
        try:
            if gr["date"].strip() == r["date"] and all(abs(float(gr[c]) - float(r[c])) < 0.001 for c in COLS):
                ok += 1
        except Exception:
            pass
    want = float(sum(r["interest"] for r in rows))
    try:
        s = json.load(open(os.path.join(out, "summary.json")))[stem]
        gi = float(s["total_interest"])
        good_sum = int(s["n_payments"]) == len(rows) and abs(float(s["total_paid"]) - float(sum(r["payment"] + r["extra"] for r in rows))) < 0.001
    except Exception:
        gi, good_sum = None, False
    interest_err.append(abs(gi - want) if gi is not None else 1e9)
    return 0.8 * ok / max(len(rows), len(got)) + 0.2 * good_sum


def run_case(tag, files, exp):
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    out = d + "-out"
    code, _, err = run(["python3", TOOL, d, out], timeout=20)
    scores = [score_contract(e, out, stem) for stem, e in sorted(exp.items())]
    return sum(scores) / len(scores), "%s: exit %s, %s %s" % (tag, code, ["%.2f" % s for s in scores], err.strip()[-120:])


def hidden(kind, n):
    def fn():
        rng = random.Random("%d$%s" % (SEED, kind))
        res = [run_case("%s%d" % (kind, i), *generate(gen.build, rng, kind)) for i in range(n)]
        return sum(r[0] for r in res) / n, "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        src = os.path.join(PUB, ex)
        out = os.path.join(TMP, ex + "-out")
        run(["python3", TOOL, stage(ex + "/contracts"), out], timeout=20)
        exp_sum = json.load(open(os.path.join(src, "expected", "summary.json")))
        good = True
        for stem in exp_sum:
            try:
                a = open(os.path.join(src, "expected", stem + ".csv")).read().split()
                b = open(os.path.join(out, stem + ".csv")).read().split()
                good = good and a == b and json.load(open(os.path.join(out, "summary.json")))[stem] == exp_sum[stem]
            except Exception:
                good = False
        ok.append(good)
    return float(all(ok)), "examples identical: %s" % ok


g.check("public_examples", public)
g.check("hidden_plain", hidden("plain", 2))
g.check("hidden_phrasing_amendments", hidden("phrasing", 2))
g.check("hidden_rate_change", hidden("rate_change", 2))
g.check("hidden_prepay_balloon", hidden("prepay_balloon", 2))
g.check("total_interest", lambda: (sum(continuous(e, 0.005, 500.0) for e in interest_err) / max(1, len(interest_err)),
                                   "abs errors: %s" % ["%.2f" % e for e in interest_err]))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
