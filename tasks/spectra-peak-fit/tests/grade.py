"""Grades /app/runbatch.py on the two public batches and on seeded hidden batches.

Expected values never come from the specfit code path: peak centres, widths and areas, the true
area ratios, concentrations (from the grader's own centred least-squares line), flags and the
audit codes are planted by gen.py before the spectra are drawn.
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
TOOL = os.path.join(WORK, "runbatch.py")
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
TOL_CENTER = 0.03   # of the planted FWHM
TOL_REL = 0.05      # FWHM, area, concentration (relative)


def num(s):
    try:
        s = (s or "").strip()
        return None if s == "" else float(s)
    except ValueError:
        return None


def read_csv(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except Exception:
        return []


def field(r, k):
    return (r.get(k) or "").strip()


def rel_ok(got, want):
    return got is not None and abs(got - want) <= TOL_REL * abs(want) + 1e-12


def peak_ok(row, want):
    _, _, c, w, a = want
    if row is None:
        return False, "missing"
    gc, gw, ga = num(row.get("center")), num(row.get("fwhm")), num(row.get("area"))
    bad = []
    if gc is None or abs(gc - c) > TOL_CENTER * w:
        bad.append("center %s != %.4f" % (row.get("center"), c))
    if not rel_ok(gw, w):
        bad.append("fwhm %s != %.4f" % (row.get("fwhm"), w))
    if not rel_ok(ga, a):
        bad.append("area %s != %.5g" % (row.get("area"), a))
    return not bad, "; ".join(bad[:2])


def report_ok(row, want):
    _, _, _, conc, flag = want
    if row is None:
        return False, "missing"
    bad = []
    if not rel_ok(num(row.get("concentration")), conc):
        bad.append("concentration %s != %.5g" % (row.get("concentration"), conc))
    if field(row, "flag") != flag:
        bad.append("flag %s != %s" % (row.get("flag"), flag))
    return not bad, "; ".join(bad)


def codes_of(row):
    if row is None:
        return None
    return ";".join(sorted(c.strip() for c in field(row, "codes").split(";") if c.strip()))


def score(out, exp, what):
    """(right, total, first problem) for one batch's outputs."""
    if what == "peaks":
        got = {(field(r, "sample"), field(r, "peak")): r for r in read_csv(os.path.join(out, "peaks.csv"))}
        items = [(w, peak_ok(got.get((w[0], w[1])), w)) for w in exp["peaks"]]
    elif what == "report":
        got = {(field(r, "sample"), field(r, "analyte")): r for r in read_csv(os.path.join(out, "report.csv"))}
        items = [(w, report_ok(got.get((w[0], w[1])), w)) for w in exp["report"]]
    else:
        got = {(field(r, "sample"), field(r, "analyte")): r for r in read_csv(os.path.join(out, "audit.csv"))}
        items = []
        for w in exp["audit"]:
            c = codes_of(got.get((w[0], w[1])))
            items.append((w, (c == w[2], "codes %r != %r" % (c, w[2]))))
    right = sum(1 for _, (ok, _) in items if ok)
    first = next(("%s/%s: %s" % (w[0], w[1], why) for w, (ok, why) in items if not ok), "")
    return right, len(items), first


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


def hidden(kind, n, what):
    def fn():
        cases = []
        for i in range(n):
            rng = random.Random("%d/%s/%d" % (SEED, kind, i))
            files, exp = generate(gen.build, rng, kind, i)
            cases.append((write_case("%s%d" % (kind, i), files), exp))
        total, msgs = 0.0, []
        for i, (d, exp) in enumerate(cases):
            out = d + "-out"
            code, err = run_tool(d, out)
            right, count, first = score(out, exp, what)
            # a batch counts fully only when every row is right, else half its share of right rows
            total += 1.0 if right == count else 0.5 * right / max(count, 1)
            msgs.append("case %d: %d/%d %s rows (exit %s) %s%s" % (
                i, right, count, what, code, first, (" " + err) if code else ""))
        return total / n, "; ".join(msgs)
    return fn


def read_expected(ex):
    """The shipped answers of a public batch, in the generator's row shapes."""
    base = os.path.join(PUB, ex, "expected")
    exp = {"peaks": [], "report": [], "audit": []}
    for r in read_csv(os.path.join(base, "peaks.csv")):
        exp["peaks"].append([r["sample"], r["peak"], float(r["center"]), float(r["fwhm"]), float(r["area"])])
    for r in read_csv(os.path.join(base, "report.csv")):
        exp["report"].append([r["sample"], r["analyte"], float(r["ratio"]), float(r["concentration"]), r["flag"]])
    for r in read_csv(os.path.join(base, "audit.csv")):
        exp["audit"].append([r["sample"], r["analyte"], r["codes"]])
    return exp


def public():
    res = []
    for ex in ("example1", "example2"):
        d = os.path.join(TMP, "public", ex)
        shutil.copytree(os.path.join(PUB, ex, "input"), d)
        out = d + "-out"
        code, _ = run_tool(d, out)
        exp = read_expected(ex)
        good = code == 0
        for what in ("peaks", "report", "audit"):
            right, count, _ = score(out, exp, what)
            good = good and right == count
        res.append(bool(good))
    return float(all(res)), "examples right: %s" % res


g.check("public_examples", public)
g.check("hidden_readers", hidden("readers", 2, "peaks"))
g.check("hidden_baseline", hidden("baseline", 2, "peaks"))
g.check("hidden_shapes", hidden("shapes", 3, "peaks"))
g.check("hidden_quant", hidden("quant", 2, "report"))
g.check("hidden_audit", hidden("audit", 2, "audit"))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
