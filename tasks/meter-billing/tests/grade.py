"""Grades the repaired /app/bill.py: `run` on the public examples and on seeded hidden periods whose
answers come from the grader's own reference (billref.py), `audit` on supplier bills with planted
errors, and the shipped periods against their answers in tests/shipped."""
import csv
import os
import random
import shutil
import sys
import tempfile
from decimal import Decimal, InvalidOperation

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import billref  # noqa: E402
import gen  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "bill.py")
# The grader's own copies of the examples and the shipped periods: /app is the agent's to edit.
HERE = os.path.dirname(os.path.abspath(__file__))


def norm(text, places):
    try:
        return str((Decimal((text or "").strip()) + 0).quantize(Decimal(1).scaleb(-places)))
    except (InvalidOperation, ValueError):
        return (text or "").strip()


def rows_of(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(f)]
    except Exception:
        return []


def bill_key(r):
    return tuple(norm(r.get(c), 3 if c.endswith("_kwh") else 2) for c in billref.ORDER)


def read_run(out):
    """bills.csv and lines.csv of an output folder, numbers normalised (kWh and days to 3 decimals)."""
    bills = {r.get("account"): bill_key(r) for r in rows_of(os.path.join(out, "bills.csv"))}
    lines = {(r.get("account"), r.get("kind"), r.get("version"), r.get("item")): (norm(r.get("quantity"), 3), norm(r.get("amount"), 2))
             for r in rows_of(os.path.join(out, "lines.csv"))}
    return {"bills": bills, "lines": lines}


def normal_want(want):
    bills = {a: tuple(norm(x, 3 if i < 2 else 2) for i, x in enumerate(v)) for a, v in want["bills"].items()}
    lines = {k: (norm(q, 3), norm(a, 2)) for k, (q, a) in want["lines"].items()}
    return {"bills": bills, "lines": lines}


def read_findings(path):
    return {(r.get("account"), r.get("reason"), r.get("field"), norm(r.get("reported"), 3 if r.get("field", "").endswith("_kwh") else 2),
             norm(r.get("corrected"), 3 if r.get("field", "").endswith("_kwh") else 2)) for r in rows_of(path)}


def normal_findings(found):
    return {(a, r, f, norm(x, 3 if f.endswith("_kwh") else 2), norm(y, 3 if f.endswith("_kwh") else 2)) for a, r, f, x, y in found}


def score_run(want, got):
    """Share of accounts (expected or reported) whose bill row and charge lines are all exact."""
    want = normal_want(want)
    ids = set(want["bills"]) | set(got["bills"])
    if not ids:
        return 1.0
    ok = 0
    for a in ids:
        wl = {k: v for k, v in want["lines"].items() if k[0] == a}
        gl = {k: v for k, v in got["lines"].items() if k[0] == a}
        if want["bills"].get(a) == got["bills"].get(a) and wl == gl:
            ok += 1
    return ok / len(ids)


def share(want, got):
    n = max(len(want), len(got))
    return 1.0 if n == 0 else len(want & got) / n


def write_case(tag, built):
    """Writes one hidden period; its answer is kept in memory only."""
    files, want = built
    d = os.path.join(TMP, tag)
    for name, data in sorted(files.items()):
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    return d, want


def prepare(kind, n):
    """Every hidden period of a kind with its answer, built before any submitted program runs."""
    try:
        rng = random.Random("%d@%s" % (SEED, kind))
        out = []
        for i in range(n):
            built = generate(gen.build_audit if kind == "audit" else gen.build, rng, kind)
            out.append(("%s%d" % (kind, i),) + write_case("%s%d" % (kind, i), built))
        return out
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def stage(src, tag):
    dst = os.path.join(TMP, "public", tag)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def run_case(tag, d, want):
    out = os.path.join(TMP, tag + "-out")
    code, _, err = run(["python3", TOOL, "run", d, out], timeout=60)
    s = score_run(want, read_run(out))
    return s, "%s: %.3f%s" % (tag, s, (" exit %s %s" % (code, err.strip()[-100:])) if code else "")


def audit_case(tag, d, vendor, want):
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOOL, "audit", d, vendor, out], timeout=60)
    s = share(normal_findings(want), read_findings(out))
    return s, "%s: %.3f%s" % (tag, s, (" exit %s %s" % (code, err.strip()[-100:])) if code else "")


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        if kind == "audit":
            res = [audit_case(tag, d, os.path.join(d, "vendor", "bills.csv"), want["findings"]) for tag, d, want in cases]
        else:
            res = [run_case(*c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def expected_of(folder):
    got = read_run(folder)
    return {"bills": got["bills"], "lines": got["lines"]}


def public():
    ok = []
    for ex in ("example1", "example2"):
        src = os.path.join(HERE, "examples", ex)
        d = stage(os.path.join(src, "period"), ex)
        s, _ = run_case(ex, d, expected_of(os.path.join(src, "expected")))
        vendor = os.path.join(TMP, "public", ex + "-vendor.csv")
        shutil.copyfile(os.path.join(src, "vendor-bills.csv"), vendor)
        a, _ = audit_case(ex, d, vendor, read_findings(os.path.join(src, "expected", "audit.csv")))
        ok.append(s == 1.0 and a == 1.0)
    return float(all(ok)), "examples right: %s" % ok


def shipped():
    """The shipped period's run (70%) and the audit of the previous period's supplier bills (30%)."""
    cur = os.path.join(HERE, "shipped", "2026-10")
    s, m1 = run_case("2026-10", stage(os.path.join(cur, "period"), "2026-10"), expected_of(os.path.join(cur, "expected")))
    prev = os.path.join(HERE, "shipped", "2026-09")
    d = stage(os.path.join(prev, "period"), "2026-09")
    a, m2 = audit_case("2026-09 audit", d, os.path.join(d, "vendor", "bills.csv"), read_findings(os.path.join(prev, "expected", "audit.csv")))
    return 0.7 * s + 0.3 * a, m1 + "; " + m2


CASES = {k: prepare(k, n) for k, n in (("reads", 3), ("tou", 3), ("charges", 3), ("audit", 3))}
g.check("public_examples", public)
g.check("hidden_reads", hidden("reads"))
g.check("hidden_tou", hidden("tou"))
g.check("hidden_charges", hidden("charges"))
g.check("hidden_audit", hidden("audit"))
g.check("shipped_periods", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
