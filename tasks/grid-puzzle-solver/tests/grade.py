"""Generates hidden puzzles from the seed, runs /app/solver.py on each, validates with the checker."""
import json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import puzzles

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "solver.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")



def attempt(tag, pz):
    p, o = os.path.join(TMP, tag + ".json"), os.path.join(TMP, tag + ".out.json")
    text = json.dumps(pz)
    with open(p, "w") as f:
        f.write(text)
    code, _, err = run(["python3", TOOL, p, o], timeout=10)
    try:
        grid = json.load(open(o))["grid"]
    except Exception:
        return False, "exit %s, no solution file %s" % (code, err.strip()[-100:])
    return puzzles.check(pz, grid)


def hidden(kind, n):
    def fn():
        rng = random.Random("%d|%s" % (SEED, kind))
        res = []
        for i in range(n):
            pz = generate(puzzles.make, rng, kind)
            g.digest(json.dumps(pz, sort_keys=True))
            ok, why = attempt("%s%d" % (kind, i), pz)
            res.append((ok, "%dx%d %s" % (pz["size"], pz["size"], why)))
        return sum(ok for ok, _ in res) / n, "; ".join(m for _, m in res)
    return fn


def public():
    out = []
    for ex in ("example1", "example2"):
        pz = json.load(open(os.path.join(PUB, ex + ".json")))
        out.append(attempt(ex, pz))
    return float(all(ok for ok, _ in out)), str(out)


g.check("public_examples", public)
g.check("hidden_classic", hidden("classic", 3))
g.check("hidden_box_shapes", hidden("sizes", 4))
g.check("hidden_killer", hidden("killer", 4))
g.check("hidden_inequality", hidden("inequality", 4))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
