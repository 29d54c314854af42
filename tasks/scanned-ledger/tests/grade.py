"""Grades /app/recover.py on the public scans and on seeded hidden scans."""
import csv, json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "recover.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
checks = []  # per hidden scan: reconciliation score


def stage(rel):
    """Copies a public input from the grader's copy into scratch space and returns the copy's path."""
    src, dst = os.path.join(PUB, rel), os.path.join(TMP, "public", rel)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)
    return dst


def outputs(scan, out):
    """Runs the tool; returns (rows or None, check dict or None, message)."""
    code, _, err = run(["python3", TOOL, scan, out], timeout=60)
    rows = chk = None
    try:
        with open(os.path.join(out, "table.csv"), newline="") as f:
            rows = [[c.strip() for c in r] for r in csv.reader(f) if r]
    except (OSError, csv.Error, UnicodeDecodeError):
        pass
    try:
        with open(os.path.join(out, "check.json")) as f:
            chk = json.load(f)
        if not isinstance(chk, dict):
            chk = None
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    msg = "" if code == 0 else "exit %s %s" % (code, err.strip()[-120:])
    return rows, chk, msg


def matched(exp_rows, got_rows):
    """How many expected rows appear in the output (each output row used once)."""
    pool = [tuple(r) for r in got_rows]
    hit = []
    for r in exp_rows:
        t = tuple(r)
        if t in pool:
            pool.remove(t)
            hit.append(True)
        else:
            hit.append(False)
    return hit


def check_score(exp, chk):
    if chk is None:
        return 0.0
    return 0.5 * (chk.get("bad_rows") == exp["bad_rows"]) + 0.5 * (chk.get("bad_totals") == exp["bad_totals"])


def hidden(kind, n):
    def fn():
        rng = random.Random("%d/%s" % (SEED, kind))
        scores, msgs = [], []
        for i in range(n):
            data, exp = generate(gen.build, rng, kind)
            g.digest(kind.encode() + data)
            scan = os.path.join(TMP, "%s%d.png" % (kind, i))
            with open(scan, "wb") as f:
                f.write(data)
            rows, chk, msg = outputs(scan, os.path.join(TMP, "%s%d.out" % (kind, i)))
            checks.append(check_score(exp, chk))
            if rows is None:
                scores.append(0.0)
                msgs.append("scan %d: no table.csv %s" % (i, msg))
                continue
            hit = matched(exp["rows"], rows)
            denom = max(len(exp["rows"]), len(rows))
            if kind == "merged":
                sec = [h for h, k in zip(hit, exp["kinds"]) if k == "section"]
                rest = [h for h, k in zip(hit, exp["kinds"]) if k != "section"]
                s = 0.5 * sum(sec) / len(sec) + 0.5 * sum(rest) / max(len(rest), denom - len(sec))
            else:
                s = sum(hit) / denom
            scores.append(s)
            msgs.append("scan %d: %d/%d rows right %s" % (i, sum(hit), len(exp["rows"]), msg))
        return sum(scores) / n, "; ".join(msgs)
    return fn


def public():
    res = []
    for ex in ("example1", "example2"):
        rows, chk, msg = outputs(stage(ex + "/scan.png"), os.path.join(TMP, ex + ".out"))
        with open(os.path.join(PUB, ex, "expected", "table.csv"), newline="") as f:
            exp_rows = [r for r in csv.reader(f) if r]
        with open(os.path.join(PUB, ex, "expected", "check.json")) as f:
            exp_chk = json.load(f)
        res.append(rows == exp_rows and check_score(exp_chk, chk) == 1.0)
    return float(all(res)), "examples right: %s" % res


def totals():
    if not checks:
        return 0.0, "no hidden scans graded"
    return sum(checks) / len(checks), "reconciliation right on %.1f of %d scans" % (sum(checks), len(checks))


g.check("public_examples", public)
g.check("hidden_plain", hidden("plain", 2))
g.check("hidden_noisy", hidden("noisy", 2))
g.check("hidden_skewed", hidden("skewed", 2))
g.check("hidden_merged", hidden("merged", 2))
g.check("totals_reconciliation", totals)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
