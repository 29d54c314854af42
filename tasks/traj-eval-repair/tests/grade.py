"""Grades /app/evaluate.py on the two public benchmarks and on seeded hidden benchmarks.

Expected values never come from the toolkit's code path: pairs, tracking losses, drift and the
published table's errors are planted by gen.py; ATE, scale and RPE are computed by gen.py with
Horn's quaternion alignment and quaternion algebra.
"""
import csv
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
TOOL = os.path.join(WORK, "evaluate.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
REL = 1e-6      # relative tolerance on scale, ATE and RPE
ABS = 1e-9      # absolute tolerance (metres; the scale)
ABS_DEG = 1e-5  # absolute tolerance on rpe_rot (degrees): an angle from a trace near 1 is only
                # good to about 1e-6 degrees


def num(s):
    try:
        s = (s or "").strip()
        return None if s == "" else float(s)
    except ValueError:
        return None


def close(got, want, tol_abs=1e-9):
    if want is None:
        return got is None
    return got is not None and abs(got - want) <= REL * abs(want) + tol_abs


def read_csv(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except Exception:
        return []


def key(r):
    return ((r.get("system") or "").strip(), (r.get("sequence") or "").strip())


def read_out(out):
    res = {key(r): r for r in read_csv(os.path.join(out, "results.csv"))}
    aud = {}
    for r in read_csv(os.path.join(out, "audit.csv")):
        codes = sorted(c.strip() for c in (r.get("codes") or "").split(";") if c.strip())
        aud[key(r)] = codes
    return res, aud


def row_right(row, want):
    """A results row is right when every field is: pairs, alignment, scale, ATE and RPE."""
    if row is None:
        return False, "missing"
    bad = []
    try:
        if int((row.get("pairs") or "").strip()) != want["pairs"]:
            bad.append("pairs %s != %d" % (row.get("pairs"), want["pairs"]))
    except ValueError:
        bad.append("pairs unreadable")
    if (row.get("alignment") or "").strip() != want["alignment"]:
        bad.append("alignment %s" % row.get("alignment"))
    for k in ("scale", "ate_rmse", "rpe_trans", "rpe_rot"):
        if not close(num(row.get(k)), want[k], ABS_DEG if k == "rpe_rot" else ABS):
            bad.append("%s %s != %.9g" % (k, row.get(k), want[k]))
    return not bad, "; ".join(bad[:2])


def run_tool(bench_dir, out_dir):
    code, _, err = run(["python3", TOOL, bench_dir, out_dir], timeout=120)
    return code, err.strip()[-160:]


def write_case(tag, files):
    d = os.path.join(TMP, tag)
    for name, data in sorted(files.items()):
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    return d


def hidden(kind, n):
    def fn():
        cases = []
        for i in range(n):
            rng = random.Random("%d/%s/%d" % (SEED, kind, i))
            files, exp = generate(gen.build, rng, kind, i)
            cases.append((write_case("%s%d" % (kind, i), files), exp))
        ok, total, msgs = 0, 0, []
        for i, (d, exp) in enumerate(cases):
            out = d + "-out"
            code, err = run_tool(d, out)
            res, aud = read_out(out)
            if kind == "audit":
                items = [(s, q, codes) for s, q, codes in exp["audit"]]
                good = sum(aud.get((s, q)) == codes for s, q, codes in items)
                first = next(("%s/%s: %s != %s" % (s, q, aud.get((s, q)), codes)
                              for s, q, codes in items if aud.get((s, q)) != codes), "")
                ok, total = ok + good, total + len(items)
                msgs.append("case %d: %d/%d rows (exit %s) %s%s" % (
                    i, good, len(items), code, first, (" " + err) if code else ""))
            else:
                good, first = 0, ""
                for want in exp["runs"]:
                    right, why = row_right(res.get((want["system"], want["sequence"])), want)
                    good += right
                    if not right and not first:
                        first = "%s/%s: %s" % (want["system"], want["sequence"], why)
                ok, total = ok + good, total + len(exp["runs"])
                msgs.append("case %d: %d/%d runs (exit %s) %s%s" % (
                    i, good, len(exp["runs"]), code, first, (" " + err) if code else ""))
        return ok / max(total, 1), "; ".join(msgs)
    return fn


def public():
    res = []
    for ex in ("example1", "example2"):
        src = os.path.join(PUB, ex, "input")
        d = os.path.join(TMP, "public", ex)
        shutil.copytree(src, d)
        out = d + "-out"
        code, err = run_tool(d, out)
        got_res, got_aud = read_out(out)
        want_res, want_aud = read_out(os.path.join(PUB, ex, "expected"))
        good = code == 0 and set(got_res) == set(want_res) and got_aud == want_aud
        for k, w in want_res.items():
            want = {"pairs": int(w["pairs"]), "alignment": w["alignment"]}
            for f in ("scale", "ate_rmse", "rpe_trans", "rpe_rot"):
                want[f] = num(w[f])
            good = good and row_right(got_res.get(k), want)[0]
        res.append(bool(good))
    return float(all(res)), "examples right: %s" % res


g.check("public_examples", public)
g.check("hidden_rigid", hidden("rigid", 2))
g.check("hidden_monocular", hidden("monocular", 2))
g.check("hidden_association", hidden("association", 2))
g.check("hidden_rpe", hidden("rpe", 2))
g.check("hidden_audit", hidden("audit", 3))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
