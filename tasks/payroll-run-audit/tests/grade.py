"""Grades the repaired /app/payrun.py: `run` on the public examples and on seeded hidden periods whose
answers come from the grader's own reference (payref.py), `audit` on vendor registers with planted
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
import gen  # noqa: E402
import payref  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "payrun.py")
# The grader's own copies of the examples and the shipped periods: /app is the agent's to edit.
HERE = os.path.dirname(os.path.abspath(__file__))
YTD = ["year", "gross", "pension", "withholding", "carry_forward"]


def num(text):
    try:
        return "%.2f" % Decimal((text or "").strip())
    except (InvalidOperation, ValueError):
        return (text or "").strip()


def table(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(f)]
    except Exception:
        return []


def read_run(out):
    """register / lines / ytd of an output folder, numbers normalised to two decimals."""
    reg = {r.get("employee_id"): tuple(num(r.get(c)) for c in payref.ORDER) for r in table(os.path.join(out, "register.csv"))}
    lines = {(r.get("employee_id"), r.get("code")): (num(r.get("hours")), num(r.get("amount"))) for r in table(os.path.join(out, "lines.csv"))}
    ytd = {r.get("employee_id"): (r.get("year"),) + tuple(num(r.get(c)) for c in YTD[1:]) for r in table(os.path.join(out, "ytd.csv"))}
    return {"register": reg, "lines": lines, "ytd": ytd}


def read_findings(path):
    return {(r.get("employee_id"), r.get("reason"), r.get("field"), num(r.get("reported")), num(r.get("corrected")))
            for r in table(path)}


def score_run(want, got):
    """Share of employees (expected or reported) whose register row, lines and ytd row are all exact."""
    ids = set(want["register"]) | set(got["register"])
    if not ids:
        return 1.0
    ok = 0
    for eid in ids:
        wl = {k: v for k, v in want["lines"].items() if k[0] == eid}
        gl = {k: v for k, v in got["lines"].items() if k[0] == eid}
        if want["register"].get(eid) == got["register"].get(eid) and wl == gl and want["ytd"].get(eid) == got["ytd"].get(eid):
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
            # deductions: the first period is paid in January (a new year), the second is not
            jan = {0: True, 1: False}.get(i) if kind == "deductions" else None
            out.append(("%s%d" % (kind, i),) + write_case("%s%d" % (kind, i), generate(gen.build, rng, kind, jan)))
        return out
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def stage(src, tag):
    dst = os.path.join(TMP, "public", tag)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def run_case(tag, d, want):
    out = os.path.join(TMP, tag + "-out")
    code, _, err = run(["python3", TOOL, "run", d, out], timeout=30)
    s = score_run(want, read_run(out))
    return s, "%s: %.3f%s" % (tag, s, (" exit %s %s" % (code, err.strip()[-100:])) if code else "")


def audit_case(tag, d, register, want):
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOOL, "audit", d, register, out], timeout=30)
    s = share(want, read_findings(out))
    return s, "%s: %.3f%s" % (tag, s, (" exit %s %s" % (code, err.strip()[-100:])) if code else "")


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        if kind == "audit":
            res = [audit_case(tag, d, os.path.join(d, "vendor", "register.csv"), want["findings"]) for tag, d, want in cases]
        else:
            res = [run_case(*c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        src = os.path.join(HERE, "examples", ex)
        d = stage(os.path.join(src, "period"), ex)
        s, _ = run_case(ex, d, read_run(os.path.join(src, "expected")))
        reg = os.path.join(TMP, "public", ex + "-vendor.csv")
        shutil.copyfile(os.path.join(src, "vendor-register.csv"), reg)
        a, _ = audit_case(ex, d, reg, read_findings(os.path.join(src, "expected", "audit.csv")))
        ok.append(s == 1.0 and a == 1.0)
    return float(all(ok)), "examples right: %s" % ok


def shipped():
    """The shipped period's run (70%) and the audit of the previous period's vendor register (30%)."""
    cur = os.path.join(HERE, "shipped", "2026-07-06")
    s, m1 = run_case("2026-07-06", stage(os.path.join(cur, "period"), "2026-07-06"), read_run(os.path.join(cur, "expected")))
    prev = os.path.join(HERE, "shipped", "2026-06-22")
    d = stage(os.path.join(prev, "period"), "2026-06-22")
    a, m2 = audit_case("2026-06-22 audit", d, os.path.join(d, "vendor", "register.csv"), read_findings(os.path.join(prev, "expected", "audit.csv")))
    return 0.7 * s + 0.3 * a, m1 + "; " + m2


CASES = {k: prepare(k, n) for k, n in (("hours", 3), ("salaried", 3), ("deductions", 3), ("audit", 3))}
g.check("public_examples", public)
g.check("hidden_hours", hidden("hours"))
g.check("hidden_salaried_retro", hidden("salaried"))
g.check("hidden_deductions", hidden("deductions"))
g.check("hidden_audit", hidden("audit"))
g.check("shipped_periods", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
