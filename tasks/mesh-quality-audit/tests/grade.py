"""Grades /app/meshtool.py on the public examples, the shipped campaign and seeded hidden batches.

Expected values never come from the toolkit's code path: every count is planted by gen.py (each
mesh is assembled from features whose contribution to each count is known), and the angles are
computed by gen.py from the written coordinates with atan2 (the toolkit uses the law of cosines).
"""
import csv
import json
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
TOOL = os.path.join(WORK, "meshtool.py")
# The grader's own copies of the public cases and the campaign: /app is the agent's to edit.
HERE = os.path.dirname(os.path.abspath(__file__))
PUB = os.path.join(HERE, "examples")
CAMPAIGN = os.path.join(HERE, "campaign")
REL = 1e-6
ABS = 1e-9
INTS = ("vertices", "dangling", "merged", "triangles", "collapsed", "inverted", "boundary_edges",
        "nonmanifold_edges", "boundary_loops", "components", "euler")


def num(s):
    try:
        return float((s or "").strip())
    except ValueError:
        return None


def read_csv(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except Exception:
        return []


def read_out(out):
    rep = {(r.get("mesh") or "").strip(): r for r in read_csv(os.path.join(out, "report.csv"))}
    aud = {}
    for r in read_csv(os.path.join(out, "audit.csv")):
        codes = {c.strip() for c in (r.get("codes") or "").split(";") if c.strip()}
        codes.discard("OK")
        aud[(r.get("mesh") or "").strip()] = codes
    return rep, aud


def row_right(row, want):
    """A report row is right when every field is: counts exact, area and min_angle within 1e-6
    relative, the six bins exact."""
    if row is None:
        return False, "missing"
    bad = []
    for k in INTS:
        v = num(row.get(k))
        if v is None or v != want[k]:
            bad.append("%s %s != %d" % (k, row.get(k), want[k]))
    for k in ("area", "min_angle"):
        v = num(row.get(k))
        if v is None or abs(v - want[k]) > REL * abs(want[k]) + ABS:
            bad.append("%s %s != %.9g" % (k, row.get(k), want[k]))
    bins = [s.strip() for s in (row.get("angle_bins") or "").split(";")]
    if bins != [str(b) for b in want["angle_bins"]]:
        bad.append("angle_bins %s != %s" % (row.get("angle_bins"), want["angle_bins"]))
    return not bad, "; ".join(bad[:2])


def run_tool(src, out):
    code, _, err = run(["python3", TOOL, src, out], timeout=120)
    return code, err.strip()[-160:]


def write_case(tag, files):
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    return d


def score_report(rep, rows):
    good, first = 0, ""
    for want in rows:
        right, why = row_right(rep.get(want["mesh"]), want)
        good += right
        if not right and not first:
            first = "%s: %s" % (want["mesh"], why)
    return good, first


def score_audit(aud, items):
    good = sum(aud.get(n) == set(c) for n, c in items)
    first = next(("%s: %s != %s" % (n, sorted(aud.get(n) or []) if n in aud else "missing",
                                    sorted(c)) for n, c in items if aud.get(n) != set(c)), "")
    return good, first


def hidden(kind, n):
    def fn():
        cases = []
        for i in range(n):
            rng = random.Random("%d/%s/%d" % (SEED, kind, i))
            files, exp = generate(gen.build, rng, kind)
            cases.append((write_case("%s%d" % (kind, i), files), exp))
        ok, total, msgs = 0, 0, []
        for i, (d, exp) in enumerate(cases):
            code, err = run_tool(d, d + "-out")
            rep, aud = read_out(d + "-out")
            if kind == "audit":
                good, first = score_audit(aud, exp["audit"])
                count = len(exp["audit"])
            else:
                good, first = score_report(rep, exp["report"])
                count = len(exp["report"])
            ok, total = ok + good, total + count
            msgs.append("case %d: %d/%d (exit %s) %s%s" % (
                i, good, count, code, first, (" " + err) if code else ""))
        return ok / max(total, 1), "; ".join(msgs)
    return fn


def campaign():
    with open(os.path.join(HERE, "campaign_expected.json")) as f:
        exp = json.load(f)
    d = os.path.join(TMP, "campaign")
    shutil.copytree(CAMPAIGN, d)
    code, err = run_tool(d, d + "-out")
    rep, aud = read_out(d + "-out")
    r, f1 = score_report(rep, exp["report"])
    a, f2 = score_audit(aud, exp["audit"])
    nr, na = len(exp["report"]), len(exp["audit"])
    return 0.5 * r / nr + 0.5 * a / na, "report %d/%d %s; audit %d/%d %s (exit %s%s)" % (
        r, nr, f1, a, na, f2, code, (" " + err) if code else "")


def public():
    res = []
    for ex in ("example1", "example2"):
        d = os.path.join(TMP, "public", ex)
        shutil.copytree(os.path.join(PUB, ex, "input"), d)
        code, err = run_tool(d, d + "-out")
        got_rep, got_aud = read_out(d + "-out")
        want_rep, want_aud = read_out(os.path.join(PUB, ex, "expected"))
        good = code == 0 and set(got_rep) == set(want_rep) and got_aud == want_aud
        for name, w in want_rep.items():
            want = {k: int(w[k]) for k in INTS}
            want["area"], want["min_angle"] = float(w["area"]), float(w["min_angle"])
            want["angle_bins"] = [int(x) for x in w["angle_bins"].split(";")]
            good = good and row_right(got_rep.get(name), want)[0]
        res.append(bool(good))
    return float(all(res)), "examples right: %s" % res


g.check("public_examples", public)
g.check("campaign", campaign)
g.check("hidden_readers", hidden("readers", 2))
g.check("hidden_merge", hidden("merge", 2))
g.check("hidden_topology", hidden("topology", 2))
g.check("hidden_quality", hidden("quality", 2))
g.check("hidden_audit", hidden("audit", 2))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
