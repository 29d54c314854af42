"""Grades the repaired /app/loan.py: schedules to the cent on the public examples, on seeded hidden
contract sets (answers from amortise.py, the grader's own exact method) and on the shipped portfolio;
`audit` findings on servicer statements with planted errors (construction)."""
import csv
import json
import os
import random
import shutil
import sys
import tempfile
from decimal import Decimal, InvalidOperation

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import gen  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "loan.py")
# The grader's own copies of the public cases and the shipped portfolio: /app is the agent's to
# edit, so neither the inputs nor the expected answers are read from there.
HERE = os.path.dirname(os.path.abspath(__file__))
PUB = os.path.join(HERE, "examples")
COLS = ("payment", "interest", "principal", "extra", "balance")


def money(text):
    """A money value as text with two decimals, or the stripped text when it is not a number."""
    try:
        return str((Decimal((text or "").replace(",", "").strip()) + 0).quantize(Decimal("0.01")))
    except (InvalidOperation, ValueError):
        return (text or "").strip()


def score_contract(e, out, stem):
    """0.8 × the share of rows right to the cent (missing and extra rows count against) + 0.2 × summary."""
    rows = e["rows"]
    try:
        with open(os.path.join(out, stem + ".csv"), newline="") as f:
            got = list(csv.DictReader(f))
    except Exception:
        got = []
    ok = 0
    for r, gr in zip(rows, got):
        try:
            if gr["date"].strip() == r["date"] and all(money(gr[c]) == str(r[c]) for c in COLS):
                ok += 1
        except Exception:
            pass
    try:
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)[stem]
        good_sum = (s["currency"] == e["cur"] and int(s["n_payments"]) == len(rows)
                    and money(s["total_interest"]) == str(sum(r["interest"] for r in rows))
                    and money(s["total_paid"]) == str(sum(r["payment"] + r["extra"] for r in rows)))
    except Exception:
        good_sum = False
    return 0.8 * ok / max(len(rows), len(got), 1) + 0.2 * good_sum


def run_case(tag, d, exp):
    out = d + "-out"
    code, _, err = run(["python3", TOOL, d, out], timeout=20)
    scores = [score_contract(e, out, stem) for stem, e in sorted(exp.items())]
    return sum(scores) / len(scores), "%s: exit %s, %s %s" % (tag, code, ["%.2f" % s for s in scores], err.strip()[-120:])


def finding_key(r):
    k = (r.get("k") or "").strip()
    field = (r.get("field") or "").strip()
    norm = (lambda x: (x or "").strip()) if field == "date" else money
    return ((r.get("contract") or "").strip(), k, (r.get("reason") or "").strip(), field,
            norm(r.get("reported")), norm(r.get("corrected")))


def audit_case(tag, d, stmts, want):
    """Share of the expected findings reproduced exactly; extra rows count against."""
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOOL, "audit", d, stmts, out], timeout=20)
    try:
        with open(out, newline="", encoding="utf-8") as f:
            got = {finding_key({(a or "").strip(): b for a, b in r.items()}) for r in csv.DictReader(f)}
    except Exception:
        got = set()
    want = {finding_key(dict(zip(("contract", "k", "reason", "field", "reported", "corrected"), map(str, w)))) for w in want}
    n = max(len(want), len(got))
    s = 1.0 if n == 0 else len(want & got) / n
    return s, "%s: %.3f exit %s %s" % (tag, s, code, err.strip()[-120:] if code else "")


def write_files(folder, files):
    for name, data in sorted(files.items()):
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)


def prepare(kind, n):
    """Every hidden case of a kind with its answer, built before any submitted program runs."""
    try:
        rng = random.Random("%d$%s" % (SEED, kind))
        cases = []
        for i in range(n):
            tag = "%s%d" % (kind, i)
            files, want = generate(gen.build_audit if kind == "audit" else gen.build, rng, kind)
            write_files(os.path.join(TMP, tag), files)
            cases.append((tag, os.path.join(TMP, tag), want))
        return cases
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        if kind == "audit":
            res = [audit_case(tag, os.path.join(d, "contracts"), os.path.join(d, "statements.csv"), want) for tag, d, want in cases]
        else:
            res = [run_case(tag, d, want) for tag, d, want in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def stage(src, tag):
    """A scratch copy of one of the grader's own folders or files."""
    dst = os.path.join(TMP, "public", tag)
    if os.path.isdir(src):
        shutil.copytree(src, dst, symlinks=True)
    else:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
    return dst


def expected_of(folder):
    """{stem: {"rows", "cur"}} from an expected folder (money as 2-decimal strings)."""
    with open(os.path.join(folder, "summary.json")) as f:
        summary = json.load(f)
    exp = {}
    for stem, s in summary.items():
        with open(os.path.join(folder, stem + ".csv"), newline="") as f:
            rows = [dict(r, k=int(r["k"]), **{c: Decimal(r[c]) for c in COLS}) for r in csv.DictReader(f)]
        exp[stem] = dict(rows=rows, cur=s["currency"])
    return exp


def findings_of(path):
    with open(path, newline="", encoding="utf-8") as f:
        return [tuple(r[c] for c in ("contract", "k", "reason", "field", "reported", "corrected")) for r in csv.DictReader(f)]


def public():
    ok = []
    for ex in ("example1", "example2"):
        src = os.path.join(PUB, ex)
        s, _ = run_case(ex, stage(os.path.join(src, "contracts"), ex), expected_of(os.path.join(src, "expected")))
        a, _ = audit_case(ex, stage(os.path.join(src, "contracts"), ex + "-a"), stage(os.path.join(src, "statements.csv"), ex + ".csv"),
                          findings_of(os.path.join(src, "expected", "audit.csv")))
        ok.append(s == 1.0 and a == 1.0)
    return float(all(ok)), "examples right: %s" % ok


def shipped():
    """The shipped portfolio booked (60%, per contract) and the audit of its servicer's statements (40%)."""
    src = os.path.join(HERE, "shipped")
    s, m1 = run_case("portfolio", stage(os.path.join(src, "contracts"), "portfolio"), expected_of(os.path.join(src, "expected")))
    a, m2 = audit_case("portfolio", stage(os.path.join(src, "contracts"), "portfolio-a"), stage(os.path.join(src, "statements.csv"), "portfolio.csv"),
                       findings_of(os.path.join(src, "expected", "audit.csv")))
    return 0.6 * s + 0.4 * a, m1 + "; " + m2


CASES = {k: prepare(k, n) for k, n in (("plain", 2), ("phrasing", 2), ("rate_change", 2), ("prepay_balloon", 2), ("audit", 3))}
g.check("public_examples", public)
g.check("hidden_plain", hidden("plain"))
g.check("hidden_phrasing_amendments", hidden("phrasing"))
g.check("hidden_rate_change", hidden("rate_change"))
g.check("hidden_prepay_balloon", hidden("prepay_balloon"))
g.check("hidden_audit", hidden("audit"))
g.check("shipped_portfolio", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
