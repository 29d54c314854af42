"""Grades /app/stationqc.py on the public examples and seeded hidden station bundles."""
import csv, math, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, continuous, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "stationqc.py")
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
INTS = ("n_obs", "n_valid", "n_missing", "n_range", "n_spike")
FLOATS = ("mean_c", "min_c", "max_c", "anomaly_c")
mean_err = []


def num(s):
    s = (s or "").strip()
    return None if s == "" else float(s)


def compare(exp, out):
    with open(out, newline="") as f:
        got = {(r.get("station"), r.get("date")): r for r in csv.DictReader(f)}
    ok = 0
    for k, e in exp.items():
        r = got.get(k)
        if r is None:
            mean_err.append(5.0)
            continue
        good = all(str(e[c]) == (r.get(c) or "").strip() for c in INTS)
        for c in FLOATS:
            v = num(r.get(c))
            good = good and ((v is None) == (e[c] is None)) and (e[c] is None or abs(v - e[c]) <= 0.011)
        ok += good
        if e["mean_c"] is not None:
            v = num(r.get("mean_c"))
            mean_err.append(5.0 if v is None else min(5.0, abs(v - e["mean_c"])))
    return ok / max(len(exp), len(got))


def hidden(kind, n):
    def fn():
        rng = random.Random("%d/%s" % (SEED, kind))
        scores, msgs = [], []
        for i in range(n):
            files, exp = generate(gen.build, rng, kind)
            d = os.path.join(TMP, "%s%d" % (kind, i))
            os.makedirs(d)
            for name, data in sorted(files.items()):
                with open(os.path.join(d, name), "wb") as f:
                    f.write(data)
                g.digest(name.encode() + data)
            out = d + ".csv"
            code, _, err = run(["python3", TOOL, d, out])
            if code != 0 or not os.path.exists(out):
                scores.append(0.0)
                mean_err.extend([5.0] * len(exp))
                msgs.append("case %d: exit %s %s" % (i, code, err.strip()[-160:]))
                continue
            s = compare(exp, out)
            scores.append(s)
            msgs.append("case %d: %.3f of rows right" % (i, s))
        return sum(scores) / n, "; ".join(msgs)
    return fn


def public():
    res = []
    for ex in ("example1", "example2"):
        src = os.path.join(PUB, ex)
        out = os.path.join(TMP, ex + ".csv")
        code, _, err = run(["python3", TOOL, stage(ex + "/input"), out])
        if code != 0 or not os.path.exists(out):
            res.append("exit %s %s" % (code, err.strip()[-120:]))
            continue
        with open(os.path.join(src, "expected.csv"), newline="") as f:
            exp = {(r["station"], r["date"]): {c: (int(r[c]) if c in INTS else num(r[c])) for c in INTS + FLOATS}
                   for r in csv.DictReader(f)}
        keep = list(mean_err)
        res.append(compare(exp, out) == 1.0)
        mean_err[:] = keep
    return float(all(x is True for x in res)), "examples right: %s" % res


g.check("public_examples", public)
for kind, n in (("plain", 2), ("units", 2), ("missing", 2), ("timezones", 2), ("split", 2)):
    g.check("hidden_" + kind, hidden(kind, n))
g.check("mean_accuracy", lambda: (continuous(math.sqrt(sum(e * e for e in mean_err) / max(1, len(mean_err))), 0.006, 1.0),
                                  "RMSE of daily mean_c over %d station-days" % len(mean_err)))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
