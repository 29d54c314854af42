"""Grades /app/bill.py against planted consumption (gen.py) booked minute by minute (minute_ledger.py)."""
import csv, json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, continuous, run, generate
import gen, minute_ledger

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "bill.py")
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
cost_scores = []


def score(bill, summ, days, out, collect=True):
    try:
        with open(os.path.join(out, "bill.csv"), newline="") as f:
            got = {(r["meter"], r["date"], r["band"]): float(r["kwh"]) for r in csv.DictReader(f)}
    except Exception:
        got = {}
    ok = sum(1 for k, v in bill.items() if k in got and abs(got[k] - v) <= 0.0006)
    rows = ok / max(len(bill), len(got), 1)
    try:
        gs = json.load(open(os.path.join(out, "summary.json")))
    except Exception:
        gs = {}
    good = 0
    for m, s in summ.items():
        try:
            e = abs(float(gs[m]["cost"]) - s["cost"])
            good += e <= 0.006 and int(gs[m]["days"]) == s["days"] and abs(float(gs[m]["kwh"]) - s["kwh"]) <= 0.001
        except Exception:
            e = 1e9
        if collect:
            cost_scores.append(continuous(e, 0.006, 5.0))
    try:
        with open(os.path.join(out, "days.csv"), newline="") as f:
            gd = {(r["meter"], r["date"]): (float(r["hours"]), float(r["kwh"])) for r in csv.DictReader(f)}
    except Exception:
        gd = {}
    dok = sum(1 for k, (h, v) in days.items() if k in gd and abs(gd[k][0] - h) <= 0.001 and abs(gd[k][1] - v) <= 0.001)
    return 0.5 * rows + 0.3 * dok / max(len(days), len(gd), 1) + 0.2 * good / max(1, len(summ))


def run_case(tag, files, meters, tar):
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    out = d + "-out"
    code, _, err = run(["python3", TOOL, d, out], timeout=20)
    bill, summ, days = minute_ledger.expected(meters, tar)
    s = score(bill, summ, days, out)
    return s, "%s: %.3f (exit %s)%s" % (tag, s, code, (" " + err.strip()[-100:]) if code else "")


def hidden(kind, n):
    def fn():
        rng = random.Random("%d&%s" % (SEED, kind))
        res = [run_case("%s%d" % (kind, i), *generate(gen.build, rng, kind)) for i in range(n)]
        return sum(r[0] for r in res) / n, "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        d = os.path.join(PUB, ex)
        out = os.path.join(TMP, ex + "-out")
        run(["python3", TOOL, stage(ex + "/input"), out], timeout=20)
        with open(os.path.join(d, "expected", "bill.csv"), newline="") as f:
            bill = {(r["meter"], r["date"], r["band"]): float(r["kwh"]) for r in csv.DictReader(f)}
        summ = json.load(open(os.path.join(d, "expected", "summary.json")))
        with open(os.path.join(d, "expected", "days.csv"), newline="") as f:
            days = {(r["meter"], r["date"]): (float(r["hours"]), float(r["kwh"])) for r in csv.DictReader(f)}
        ok.append(score(bill, summ, days, out, collect=False) >= 0.9999)
    return float(all(ok)), "examples right: %s" % ok


g.check("public_examples", public)
g.check("hidden_plain", hidden("plain", 2))
g.check("hidden_dst", hidden("dst", 3))
g.check("hidden_units_rollover", hidden("units", 2))
g.check("hidden_formats", hidden("formats", 2))
g.check("cost_accuracy", lambda: (sum(cost_scores) / max(1, len(cost_scores)), "%d meters" % len(cost_scores)))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
