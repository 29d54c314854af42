"""Grades /app/digitize.py on the public figures and on seeded hidden figures and papers whose
answers come from the generator's plan (gen.py): planted pixel positions mapped through the planted
axes. A reported value is judged by mapping it back to pixels with the planted axis."""
import json
import math
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import gen  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "digitize.py")
# The grader's own copy of the public figures and answers: /app/examples is the agent's to edit.
HERE = os.path.dirname(os.path.abspath(__file__))
PUB = os.path.join(HERE, "examples")
PAPER = os.path.join(HERE, "paper")  # the grader's copy of the shipped manuscript
LINE_TOL, POINT_TOL, BAR_TOL = 1.0, 0.5, 0.5


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception:
        return None


def num(v):
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None


def pix(axis, v):
    v = num(v)
    if v is None or (axis.log and v <= 0):
        return None
    return axis.pix(v)


def score_extract(truth, got):
    """Share of planted values recovered within the stated pixel tolerance; extra values count against."""
    if not isinstance(got, dict) or not isinstance(got.get("series"), dict):
        return 0.0
    ser = got["series"]
    ya, xa = gen.axis_from(truth["yaxis"]), gen.axis_from(truth["xaxis"])
    ok = total = 0
    for nm in sorted(set(truth["names"]) | set(ser)):
        vals = ser.get(nm) if isinstance(ser.get(nm), list) else []
        if truth["kind"] == "line":
            want = truth["rows"].get(nm, [])
            total += max(len(want), len(vals))
            for w, v in zip(want, vals):
                p = pix(ya, v)
                ok += p is not None and abs(p - w) <= LINE_TOL
        elif truth["kind"] == "bar":
            want = truth["tops"].get(nm, [])
            total += max(len(want), len(vals))
            for w, v in zip(want, vals):
                p = pix(ya, v)
                ok += p is not None and abs(p - w) <= BAR_TOL
        else:
            want = list(truth["points"].get(nm, []))
            total += max(len(want), len(vals))
            for v in vals:
                if not (isinstance(v, list) and len(v) == 2):
                    continue
                pu, pv = pix(xa, v[0]), pix(ya, v[1])
                if pu is None or pv is None:
                    continue
                hit = next((w for w in want if abs(w[0] - pu) <= POINT_TOL and abs(w[1] - pv) <= POINT_TOL), None)
                if hit is not None:
                    want.remove(hit)
                    ok += 1
    return ok / total if total else 1.0


def score_table(answers, got):
    if not isinstance(got, dict):
        return 0.0
    ok = 0
    for rid, (exp, lo, hi) in answers.items():
        v = got.get(rid, "missing")
        if exp is None:
            ok += v is None
        elif isinstance(exp, int):
            ok += num(v) is not None and num(v) == exp
        else:
            v = num(v)
            eps = 1e-9 * max(abs(lo), abs(hi), 1e-12)
            ok += v is not None and lo - eps <= v <= hi + eps
    return ok / max(len(answers), len(got)) if answers else 1.0


def score_audit(verdicts, got):
    if not isinstance(got, list):
        return 0.0
    rows = {}
    for r in got:
        if isinstance(r, dict):
            rows[str(r.get("id"))] = r.get("reason")
    ok = sum(1 for cid, want in verdicts.items() if rows.get(cid) == want)
    return ok / max(len(verdicts), len(rows)) if verdicts else 1.0


def write_files(d, files):
    os.makedirs(d, exist_ok=True)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)


def execute(cmd, src, out):
    code, _, err = run(["python3", TOOL, cmd, src, out], timeout=120)
    return code, err.strip()[-160:]


def prepare_figures(kind, n):
    """Hidden figures of a kind with their plans, built before any submitted program runs."""
    try:
        rng = random.Random("%d#%s" % (SEED, kind))
        opts = gen.KINDS[kind]
        picks = [opts[i % len(opts)] for i in rng.sample(range(len(opts)), min(n, len(opts)))]
        out = []
        for i, o in enumerate(picks):
            fig = generate(gen.build_figure, rng, kind, o)
            data = generate(fig.render)
            d = os.path.join(TMP, "%s%d" % (kind, i))
            write_files(d, {"fig.png": data})
            out.append((d, fig.truth, o))
        return out
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def prepare_papers(kind):
    try:
        rng = random.Random("%d#paper-%s" % (SEED, kind))
        out = []
        for i, opts in enumerate(gen.PAPERS[kind]):
            files, answers = generate(gen.build_paper, rng, opts)
            d = os.path.join(TMP, "%s-paper%d" % (kind, i))
            write_files(d, files)
            out.append((d, answers))
        return out
    except Exception as e:
        return e


def hidden_figures(kind):
    def fn():
        cases = FIGS[kind]
        if isinstance(cases, Exception):
            raise cases
        scores, notes = [], []
        for d, truth, o in cases:
            out = d + "-out.json"
            code, err = execute("extract", os.path.join(d, "fig.png"), out)
            s = score_extract(truth, load(out))
            scores.append(s)
            tag = ",".join(k for k in sorted(o)) or "plain"
            notes.append("%s %.3f%s" % (tag, s, "" if not code else " (exit %s %s)" % (code, err)))
        return sum(scores) / len(scores), "; ".join(notes)
    return fn


def hidden_papers(kind):
    def fn():
        cases = PAPERS[kind]
        if isinstance(cases, Exception):
            raise cases
        scores, notes = [], []
        for d, ans in cases:
            out = d + "-out.json"
            code, err = execute(kind, d, out)
            s = score_table(ans["requests"], load(out)) if kind == "table" else score_audit(ans["claims"], load(out))
            scores.append(s)
            notes.append("%s %.3f%s" % (os.path.basename(d), s, "" if not code else " (exit %s %s)" % (code, err)))
        return sum(scores) / len(scores), "; ".join(notes)
    return fn


def public():
    truth = load(os.path.join(HERE, "examples_truth.json"))
    ok, notes = 0, []
    case = os.path.join(TMP, "public")
    shutil.copytree(PUB, case, ignore=shutil.ignore_patterns("expected"))
    for name, t in sorted(truth["figures"].items()):
        out = os.path.join(case, name + ".out.json")
        code, err = execute("extract", os.path.join(case, name), out)
        s = score_extract(t, load(out))
        ok += s == 1.0
        if s < 1.0:
            notes.append("%s %.3f %s" % (name, s, err))
    paper = os.path.join(case, "paper")
    for cmd, fn, ans in (("table", score_table, truth["requests"]), ("audit", score_audit, truth["claims"])):
        out = os.path.join(case, cmd + ".out.json")
        code, err = execute(cmd, paper, out)
        s = fn(ans, load(out))
        ok += s == 1.0
        if s < 1.0:
            notes.append("%s %.3f %s" % (cmd, s, err))
    n = len(truth["figures"]) + 2
    return float(ok == n), "%d of %d right%s" % (ok, n, ("; " + "; ".join(notes)) if notes else "")


def paper_results():
    """table and audit of the shipped manuscript (the grader's copy), against its planted answers."""
    truth = load(os.path.join(HERE, "paper_truth.json"))
    case = os.path.join(TMP, "manuscript")
    shutil.copytree(PAPER, case)
    got = {}
    for cmd in ("table", "audit"):
        out = os.path.join(TMP, "manuscript-%s.json" % cmd)
        execute(cmd, case, out)
        got[cmd] = load(out)
    t = score_table(truth["requests"], got["table"])
    a = score_audit(truth["claims"], got["audit"])
    return 0.5 * t + 0.5 * a, "table %.3f, audit %.3f" % (t, a)


FIGS = {k: prepare_figures(k, n) for k, n in (("line", 5), ("scatter", 4), ("bar", 3))}
PAPERS = {k: prepare_papers(k) for k in ("table", "audit")}
g.check("public_examples", public)
g.check("hidden_line", hidden_figures("line"))
g.check("hidden_scatter", hidden_figures("scatter"))
g.check("hidden_bar", hidden_figures("bar"))
g.check("hidden_table", hidden_papers("table"))
g.check("hidden_audit", hidden_papers("audit"))
g.check("paper_results", paper_results)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
