"""Grades /app/logdigest.py on the public examples and on seeded hidden bundles."""
import json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, continuous, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "logdigest.py")
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
p95_errs = []


def write(files, d):
    for name, data in sorted(files.items()):
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)


def score_case(exp, got):
    """0.2 totals + 0.1 malformed + 0.7 share of endpoints exactly right (extra rows dilute)."""
    s = 0.2 * (got.get("total_requests") == exp["total_requests"]) + 0.1 * (got.get("malformed_lines") == exp["malformed_lines"])
    gm = {(e.get("method"), e.get("route")): e for e in got.get("endpoints", []) if isinstance(e, dict)}
    ok = 0
    for e in exp["endpoints"]:
        o = gm.get((e["method"], e["route"]))
        if o is None:
            continue
        if all(o.get(k) == e[k] for k in ("count", "errors", "bytes")) and abs(float(o.get("error_rate", -1)) - e["error_rate"]) < 1e-9 \
                and all(abs(float(o.get(k, -1e9)) - e[k]) < 1e-3 for k in ("p50_ms", "p95_ms")):
            ok += 1
        if o.get("count") == e["count"]:
            p95_errs.append(abs(float(o.get("p95_ms", 0)) - e["p95_ms"]) / max(e["p95_ms"], 1.0))
        else:
            p95_errs.append(1.0)
    order = [(e.get("method"), e.get("route")) for e in got.get("endpoints", []) if isinstance(e, dict)]
    want = [(e["method"], e["route"]) for e in exp["endpoints"]]
    frac = ok / max(len(exp["endpoints"]), len(gm), 1)
    if order != want:
        frac *= 0.8
    return s + 0.7 * frac


def run_case(tag, files, exp, args):
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    write(files, d)
    out = os.path.join(TMP, tag + ".out.json")
    code, _, err = run(["python3", TOOL, d, "-o", out] + args, timeout=10)
    if code != 0 or not os.path.exists(out):
        p95_errs.extend([1.0] * len(exp["endpoints"]))
        return 0.0, "%s: exit %s %s" % (tag, code, err.strip()[-200:])
    with open(out) as f:
        got = json.load(f)
    sc = score_case(exp, got)
    return sc, "%s: %.3f" % (tag, sc)


def public():
    ok, msgs = 0, []
    for ex in ("example1", "example2"):
        src = os.path.join(PUB, ex)
        exp = json.load(open(os.path.join(src, "expected.json")))
        args = json.load(open(os.path.join(src, "args.json")))
        out = os.path.join(TMP, ex + ".json")
        code, _, err = run(["python3", TOOL, stage(ex + "/input"), "-o", out] + args)
        got = json.load(open(out)) if code == 0 and os.path.exists(out) else {}
        good = got == exp
        ok += good
        msgs.append("%s %s" % (ex, "ok" if good else "differs (exit %s %s)" % (code, err.strip()[-120:])))
    return (1.0 if ok == 2 else 0.0), "; ".join(msgs)


def hidden(kind, n):
    def fn():
        rng = random.Random("%d-%s" % (SEED, kind))
        scores, msgs = [], []
        for i in range(n):
            files, exp, args = generate(gen.build, rng, kind)
            s, m = run_case("%s%d" % (kind, i), files, exp, args)
            scores.append(s)
            msgs.append(m)
        return sum(scores) / len(scores), "; ".join(msgs)
    return fn


g.check("public_examples", public)
g.check("hidden_plain", hidden("plain", 2))
g.check("hidden_wrappers", hidden("wrappers", 3))
g.check("hidden_renamed", hidden("renamed", 3))
g.check("hidden_window", hidden("window", 3))
g.check("latency_accuracy", lambda: (continuous(sum(p95_errs) / len(p95_errs), 0.001, 0.25),
                                     "mean relative p95 error %.4f over %d endpoints" % (sum(p95_errs) / len(p95_errs), len(p95_errs))))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
