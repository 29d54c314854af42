"""Grades the repaired /app/repro.py: the table on the public examples, on seeded hidden releases
(answers from ref.py: exact Fractions, brute-force pair counting) and on the shipped paper release;
`audit` on claims files with planted mistakes (gen.py) and on the shipped other group's claims."""
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
TOOL = os.path.join(WORK, "repro.py")
# The grader's own copies of the examples and the shipped paper: /app is the agent's to edit.
HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = ref.COLS[1:]


def records(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(f)]
    except Exception:
        return []


def agrees(col, got, want):
    """want: a number or None (empty cell)."""
    if want is None:
        return (got or "") == ""
    try:
        x = float(got)
    except (TypeError, ValueError):
        return False
    if col == "n":
        return x == want
    if col == "mcnemar_p":
        return abs(x - float(want)) <= 2e-5 * abs(float(want))
    return abs(x - float(want)) <= 2e-6


def want_table(folder):
    return {(a, b): r for a, b, r in ref.table(folder)}


def want_table_file(path):
    res = {}
    for r in records(path):
        res[(r["dataset"], r["model"])] = {c: (None if r[c] == "" else float(r[c])) for c in ref.COLS}
    return res


def score_table(want, path):
    got = {(r.get("dataset"), r.get("model")): r for r in records(path)}
    hits, bad = 0, []
    for key, cells in want.items():
        r = got.get(key)
        wrong = [c for c in ref.COLS if r is None or not agrees(c, r.get(c), cells[c])]
        hits += not wrong
        if wrong:
            bad.append("%s/%s:%s" % (key[0], key[1], wrong[0] if r is not None else "row"))
    return hits / max(len(want), len(got)), bad


def score_audit(want, path):
    """want: {(dataset, model): (column, reason, correct or None)}; extra rows count against."""
    got = {(r.get("dataset"), r.get("model")): r for r in records(path)}
    hits, bad = 0, []
    for key, (col, why, val) in want.items():
        r = got.get(key)
        ok = bool(r) and r.get("column") == col and r.get("reason") == why and \
            (col == "" or agrees(col, r.get("correct"), val))
        hits += ok
        if not ok:
            bad.append("%s/%s:%s" % (key[0], key[1], why))
    n = max(len(want), len(got))
    return (1.0 if n == 0 else hits / n), bad


def write(folder, files):
    for name, data in sorted(files.items()):
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)


def claims_for(rng, folder):
    shown = [(a, b, {c: ref.show(c, v) for c, v in r.items()}) for a, b, r in ref.table(folder)]
    alts = ref.variants(folder)
    return gen.plant_claims(rng, shown, lambda a, b: alts[(a, b)])


def prepare(kind, count, audit=False):
    """Every hidden release of a kind with its answer, built before any submitted program runs."""
    try:
        rng = random.Random(rng_for(kind).next_u32())
        cases = []
        for i in range(count):
            tag = "%s%d" % (kind, i)
            d = os.path.join(TMP, tag, "data")
            write(d, generate(gen.build, rng, "mixed" if audit else kind))
            if audit:
                claims = os.path.join(TMP, tag, "claims.csv")
                write(os.path.dirname(claims), {"claims.csv": generate(claims_for, rng, d)})
                cases.append((tag, d, claims, generate(ref.audit_expected, d, claims)))
            else:
                cases.append((tag, d, generate(want_table, d)))
        return cases
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def note(code, err):
    return (" exit %s %s" % (code, err.strip()[-160:])) if code else ""


def table_case(tag, d, want):
    out = os.path.join(TMP, tag + "-table.csv")
    code, _, err = run(["python3", TOOL, d, out], timeout=60)
    s, bad = score_table(want, out)
    return s, "%s %.3f%s%s" % (tag, s, (" wrong: " + ",".join(bad[:4])) if bad else "", note(code, err))


def audit_case(tag, d, claims, want):
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOOL, "audit", d, claims, out], timeout=60)
    s, bad = score_audit(want, out)
    return s, "%s audit %.3f%s%s" % (tag, s, (" wrong: " + ",".join(bad[:4])) if bad else "", note(code, err))


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        res = [audit_case(*c) if kind == "audit" else table_case(*c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def stage(src, tag):
    dst = os.path.join(TMP, "public", tag)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def want_audit_file(path):
    res = {}
    for r in records(path):
        res[(r["dataset"], r["model"])] = (r["column"], r["reason"], None if r["correct"] == "" else float(r["correct"]))
    return res


def both(src, tag):
    s, m = table_case(tag, os.path.join(src, "data"), want_table_file(os.path.join(src, "expected", "table.csv")))
    a, m2 = audit_case(tag, os.path.join(src, "data"), os.path.join(src, "claims.csv"),
                       want_audit_file(os.path.join(src, "expected", "audit.csv")))
    return s, a, m + "; " + m2


def public():
    ok, msgs = [], []
    for ex in ("example1", "example2"):
        s, a, m = both(stage(os.path.join(HERE, "examples", ex), ex), ex)
        ok.append(s == 1.0 and a == 1.0)
        msgs.append(m)
    return float(all(ok)), "; ".join(msgs)


def shipped():
    """The shipped paper's table (70%) and the audit of the other group's claims (30%)."""
    s, a, m = both(stage(os.path.join(HERE, "shipped"), "shipped"), "shipped")
    return 0.7 * s + 0.3 * a, m


CASES = {"binary": prepare("binary", 2), "multiclass": prepare("multiclass", 2),
         "messy": prepare("messy", 2), "audit": prepare("audit", 3, audit=True)}
g.check("public_examples", public)
g.check("hidden_binary", hidden("binary"))
g.check("hidden_multiclass", hidden("multiclass"))
g.check("hidden_messy", hidden("messy"))
g.check("hidden_audit", hidden("audit"))
g.check("shipped_paper", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
