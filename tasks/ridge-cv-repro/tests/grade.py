"""Grades the repaired /app/ridgecv.py: `run` on the public examples, on seeded hidden studies whose
answers come from the grader's own implementation (ref.py, a Jacobi-SVD route) and on the shipped
study; `audit` on claims files with planted mistakes (gen.py) and on the shipped claims."""
import csv
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import WORK, Grader, generate, rng_for, run  # noqa: E402
import gen  # noqa: E402
import ref  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "ridgecv.py")
# The grader's own copies of the examples and the shipped study: /app is the agent's to edit.
HERE = os.path.dirname(os.path.abspath(__file__))


def same(a, b, tol):
    try:
        a = float(a)
    except (TypeError, ValueError):
        return False
    return abs(a - b) <= tol * max(abs(b), 1e-12)


def rows_of(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(f)]
    except Exception:
        return []


def want_run(folder):
    """Expected settings: {(outcome, fs): (n, [(lam, cv, se)], (lmin, l1, c1))}."""
    return ref.study(folder)


def want_from_files(exp):
    """The same shape, read from shipped expected cv.csv / table.csv."""
    res = {}
    for r in rows_of(os.path.join(exp, "table.csv")):
        res[(r["outcome"], r["feature_set"])] = [int(r["n"]), [], (float(r["lambda_min"]), float(r["lambda_1se"]), float(r["cv_rmse"]))]
    for r in rows_of(os.path.join(exp, "cv.csv")):
        res[(r["outcome"], r["feature_set"])][1].append((float(r["lambda"]), float(r["cv_rmse"]), float(r["se"])))
    return {k: tuple(v) for k, v in res.items()}


def score_run(want, out):
    """Share of settings whose table.csv row and every cv.csv row are right."""
    table = {(r.get("outcome"), r.get("feature_set")): r for r in rows_of(os.path.join(out, "table.csv"))}
    cvs = {}
    for r in rows_of(os.path.join(out, "cv.csv")):
        cvs.setdefault((r.get("outcome"), r.get("feature_set")), []).append(r)
    ok, bad = 0, []
    for key, (n, curve, (lmin, l1, c1)) in want.items():
        t = table.get(key)
        good = t is not None and t.get("n") == str(n) and same(t.get("lambda_min"), lmin, 1e-7) \
            and same(t.get("lambda_1se"), l1, 1e-7) and same(t.get("cv_rmse"), c1, 1e-6)
        got = cvs.get(key, [])
        good = good and len(got) == len(curve)
        for lam, c, se in curve:
            hit = [r for r in got if same(r.get("lambda"), lam, 1e-7)]
            good = good and len(hit) == 1 and same(hit[0].get("cv_rmse"), c, 1e-6) and same(hit[0].get("se"), se, 1e-6)
        ok += good
        if not good:
            bad.append("/".join(key))
    return ok / len(want), bad


def score_audit(want, path):
    """want: {(outcome, fs): (reason, lambda, cv)}; share of rows right (extra rows count against)."""
    got = {}
    for r in rows_of(path):
        got[(r.get("outcome"), r.get("feature_set"))] = r
    hits = 0
    for key, (why, lam, cv) in want.items():
        r = got.get(key)
        hits += bool(r and r.get("reason") == why and same(r.get("lambda"), lam, 1e-7) and same(r.get("cv_rmse"), cv, 1e-6))
    n = max(len(want), len(got))
    return 1.0 if n == 0 else hits / n


def write(folder, files):
    os.makedirs(folder, exist_ok=True)
    for name, data in sorted(files.items()):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)


def prepare(kind, count, claims=False):
    """Every hidden study of a kind with its answer, built before any submitted program runs."""
    try:
        rng = random.Random(rng_for(kind).next_u32())
        cases = []
        for i in range(count):
            d = os.path.join(TMP, "%s%d" % (kind, i), "study")
            sub = kind if not claims else ("mixed", "prep", "formats")[i % 3]
            write(d, generate(gen.build, rng, sub))
            if claims:
                data, parsed = generate(gen.plant_claims, rng, d, sub == "formats")
                path = os.path.join(TMP, "%s%d" % (kind, i), "claims.csv")
                write(os.path.dirname(path), {"claims.csv": data})
                cases.append(("%s%d" % (kind, i), d, path, generate(ref.audit_expected, d, parsed)))
            else:
                cases.append(("%s%d" % (kind, i), d, generate(want_run, d)))
        return cases
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def run_case(tag, d, want):
    out = os.path.join(TMP, tag + "-out")
    code, _, err = run(["python3", TOOL, "run", d, out], timeout=60)
    s, bad = score_run(want, out)
    return s, "%s %.3f%s%s" % (tag, s, (" wrong: " + ",".join(bad[:4])) if bad else "", (" exit %s %s" % (code, err.strip()[-120:])) if code else "")


def audit_case(tag, d, claims, want):
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOOL, "audit", d, claims, out], timeout=60)
    s = score_audit(want, out)
    return s, "%s audit %.3f%s" % (tag, s, (" exit %s %s" % (code, err.strip()[-120:])) if code else "")


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        res = [audit_case(*c) if kind == "audit" else run_case(*c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def stage(src, tag):
    dst = os.path.join(TMP, "public", tag)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def expected_audit(path):
    return {(r["outcome"], r["feature_set"]): (r["reason"], float(r["lambda"]), float(r["cv_rmse"])) for r in rows_of(path)}


def public():
    ok, msgs = [], []
    for ex in ("example1", "example2"):
        src = stage(os.path.join(HERE, "examples", ex), ex)
        s, m = run_case(ex, os.path.join(src, "study"), want_from_files(os.path.join(src, "expected")))
        a, m2 = audit_case(ex, os.path.join(src, "study"), os.path.join(src, "claims.csv"), expected_audit(os.path.join(src, "expected", "audit.csv")))
        ok.append(s == 1.0 and a == 1.0)
        msgs += [m, m2]
    return float(all(ok)), "; ".join(msgs)


def shipped():
    """The shipped study's table (70%) and the audit of the other group's claims (30%)."""
    src = stage(os.path.join(HERE, "shipped"), "shipped")
    s, m = run_case("shipped", os.path.join(src, "study"), want_from_files(os.path.join(src, "expected")))
    a, m2 = audit_case("shipped", os.path.join(src, "study"), os.path.join(src, "claims.csv"), expected_audit(os.path.join(src, "expected", "audit.csv")))
    return 0.7 * s + 0.3 * a, m + "; " + m2


CASES = {"folds": prepare("folds", 2), "prep": prepare("prep", 3), "select": prepare("select", 2),
         "formats": prepare("formats", 2), "audit": prepare("audit", 3, claims=True)}
g.check("public_examples", public)
g.check("hidden_folds", hidden("folds"))
g.check("hidden_preprocess", hidden("prep"))
g.check("hidden_selection", hidden("select"))
g.check("hidden_formats", hidden("formats"))
g.check("hidden_audit", hidden("audit"))
g.check("shipped_study", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
