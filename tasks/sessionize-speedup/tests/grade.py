"""Grades /app/fast_sessionize.py: byte-identical output to the legacy semantics, and speed relative
to a reference run timed in the same sandbox (so machine load cancels out)."""
import json, os, random, shutil, sys, tempfile, time
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, continuous, run
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "fast_sessionize.py")
REF = "/tests/ref_sessionize.py"
ratios = []


def outputs(d):
    try:
        return open(os.path.join(d, "sessions.csv"), encoding="utf-8").read(), json.load(open(os.path.join(d, "summary.json"), encoding="utf-8"))
    except Exception:
        return None, None


def case(tag, data, timed=False):
    src = os.path.join(TMP, tag + ".csv")
    with open(src, "wb") as f:
        f.write(data)
    g.digest(data)
    t = time.time()
    run(["python3", REF, src, os.path.join(TMP, tag + "-ref")], timeout=60)
    t_ref = max(0.05, time.time() - t)
    limit = min(20.0, max(6.0, 10 * t_ref)) if timed else 20.0
    t = time.time()
    code, _, err = run(["python3", TOOL, src, os.path.join(TMP, tag + "-out")], timeout=limit)
    t_got = time.time() - t
    want = outputs(os.path.join(TMP, tag + "-ref"))
    got = outputs(os.path.join(TMP, tag + "-out"))
    s = 0.7 * (got[0] == want[0]) + 0.3 * (got[1] == want[1])
    if timed:
        ratios.append(t_got / t_ref if code == 0 else 1e9)
    return s, "%s: %.2f (exit %s, %.2fs vs ref %.2fs)%s" % (tag, s, code, t_got, t_ref, (" " + err.strip()[-80:]) if code else "")


def hidden(kind, n, timed=False):
    def fn():
        rng = random.Random("%d/%s" % (SEED, kind))
        res = [case("%s%d" % (kind, i), gen.build(rng, kind), timed) for i in range(n)]
        return sum(r[0] for r in res) / n, "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        d = os.path.join(WORK, "examples", ex)
        out = os.path.join(TMP, ex + "-out")
        run(["python3", TOOL, os.path.join(d, "events.csv"), out], timeout=20)
        ok.append(outputs(out) == outputs(os.path.join(d, "expected")) and outputs(out)[0] is not None)
    return float(all(ok)), "examples identical: %s" % ok


g.check("public_examples", public)
g.check("hidden_small", hidden("small", 4))
g.check("hidden_ties_boundaries", hidden("ties", 4))
g.check("hidden_large_correct", hidden("large", 2, timed=True))
g.check("speed", lambda: (sum(continuous(r, 3.0, 10.0) for r in ratios) / max(1, len(ratios)),
                          "runtime / reference runtime: %s" % ["%.2f" % r for r in ratios]))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
