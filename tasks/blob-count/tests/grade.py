"""Grades /app/blobs.py on the public PNGs and on seeded hidden PNGs."""
import json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, continuous, run, generate
import pngkit

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "blobs.py")
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
count_err = []


def score_image(exp, got):
    s = 0.4 * (got.get("count") == exp["count"]) + 0.1 * (got.get("border_count") == exp["border_count"])
    pool = [b for b in got.get("blobs", []) if isinstance(b, dict)]
    hit = 0
    for e in exp["blobs"]:
        for b in pool:
            try:
                if b["area"] == e["area"] and abs(b["cx"] - e["cx"]) <= 0.011 and abs(b["cy"] - e["cy"]) <= 0.011:
                    pool.remove(b)
                    hit += 1
                    break
            except (KeyError, TypeError):
                continue
    return s + 0.5 * hit / max(len(exp["blobs"]), len(got.get("blobs", [])), 1)


def run_image(path, exp):
    code, out, err = run(["python3", TOOL, path], timeout=20)
    try:
        got = json.loads(out)
        assert isinstance(got, dict)
    except Exception:
        count_err.append(1.0)
        return 0.0, "exit %s, no JSON %s" % (code, err.strip()[-120:])
    c = got.get("count")
    count_err.append(min(1.0, abs(c - exp["count"]) / max(1, exp["count"])) if isinstance(c, int) else 1.0)
    s = score_image(exp, got)
    return s, "%.2f (count %s vs %d)" % (s, c, exp["count"])


def hidden(kind, n):
    def fn():
        rng = random.Random("%d:%s" % (SEED, kind))
        res = []
        for i in range(n):
            data, exp = generate(pngkit.make, rng, kind)
            g.digest(data)
            p = os.path.join(TMP, "%s%d.png" % (kind, i))
            with open(p, "wb") as f:
                f.write(data)
            res.append(run_image(p, exp))
        return sum(r[0] for r in res) / n, "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        exp = json.load(open(os.path.join(PUB, ex + ".json")))
        keep = list(count_err)
        s, _ = run_image(stage(ex + ".png"), exp)
        count_err[:] = keep
        ok.append(s == 1.0)
    return float(all(ok)), "examples right: %s" % ok


g.check("public_examples", public)
g.check("hidden_plain", hidden("plain", 2))
g.check("hidden_encodings", hidden("encodings", 3))
g.check("hidden_interlaced", hidden("interlaced", 2))
g.check("hidden_noisy_rotated", hidden("noisy", 3))
g.check("count_accuracy", lambda: (continuous(sum(count_err) / len(count_err), 0.0, 0.5),
                                   "mean relative count error %.3f over %d images" % (sum(count_err) / len(count_err), len(count_err))))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
