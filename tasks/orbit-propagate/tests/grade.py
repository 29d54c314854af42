"""Grades /app/propagate.py: position relative error, log-scaled between 1e-6 (full) and 1e-2 (zero)."""
import json, math, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen, fg_reference

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "propagate.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")

TOL, CUT = 1e-6, 1e-2


def logscore(err):
    if err is None or err != err:
        return 0.0
    if err <= TOL:
        return 1.0
    if err >= CUT:
        return 0.0
    return (math.log10(CUT) - math.log10(err)) / (math.log10(CUT) - math.log10(TOL))


def errors(doc, got):
    exp = fg_reference.solve(doc)["positions"]
    errs = []
    pos = got.get("positions", {}) if isinstance(got, dict) else {}
    for bid, rows in exp.items():
        mine = pos.get(bid)
        for k, r in enumerate(rows):
            try:
                p = [float(x) for x in mine[k]]
                errs.append(math.dist(p, r) / math.sqrt(sum(x * x for x in r)))
            except Exception:
                errs.append(None)
    return errs


def run_doc(tag, doc):
    p = os.path.join(TMP, tag + ".json")
    o = os.path.join(TMP, tag + ".out.json")
    text = json.dumps(doc)
    g.digest(text)
    with open(p, "w") as f:
        f.write(text)
    code, _, err = run(["python3", TOOL, p, o], timeout=20)
    try:
        got = json.load(open(o))
    except Exception:
        got = {}
    es = errors(doc, got)
    return es, "exit %s %s" % (code, err.strip()[-100:])


def hidden(kind, n):
    def fn():
        rng = random.Random("%d~%s" % (SEED, kind))
        allerr, msgs = [], []
        for i in range(n):
            es, m = run_doc("%s%d" % (kind, i), generate(gen.case, rng, kind))
            allerr += es
            worst = max((e for e in es if e is not None), default=None)
            msgs.append("case %d: %s, worst rel err %s, %d unanswered" % (i, m, worst, sum(e is None for e in es)))
        return sum(logscore(e) for e in allerr) / len(allerr), "; ".join(msgs)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        doc = json.load(open(os.path.join(PUB, ex + ".json")))
        es, _ = run_doc(ex, doc)
        ok.append(all(e is not None and e <= TOL for e in es))
    return float(all(ok)), "examples within 1e-6: %s" % ok


g.check("public_examples", public)
g.check("hidden_general", hidden("general", 2))
g.check("hidden_circular_equatorial", hidden("circular", 2))
g.check("hidden_eccentric_long", hidden("eccentric", 2))
g.check("hidden_hyperbolic", hidden("hyperbolic", 2))
g.check("hidden_units_backward", hidden("units", 2))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
