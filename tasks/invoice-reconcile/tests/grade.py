"""Grades the repaired /app/arclose.py: `close` on the public months and on seeded hidden months whose
answers are planted by construction (gen.py), `audit` on close reports with planted mis-bookings, and
the shipped May and June closes against their answers in tests/months."""
import csv, json, os, random, shutil, sys, tempfile
from decimal import Decimal, InvalidOperation
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, continuous, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "arclose.py")
# The grader's own copies of the public months and of the shipped close folders: /app is the agent's
# to edit, so neither inputs nor answers are read from there.
HERE = os.path.dirname(os.path.abspath(__file__))
BUCKETS = ("current", "1-30", "31-60", "61-90", "90+")
aging_scores = []


def stage(src, tag):
    dst = os.path.join(TMP, "public", tag)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def dec(text):
    try:
        return Decimal((text or "").strip())
    except InvalidOperation:
        return None


def table(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(f)]
    except Exception:
        return []


def read_close(out):
    """The close as the grader compares it: invoice rows, bookings, unapplied set, aging."""
    rows = {}
    for r in table(os.path.join(out, "invoices.csv")):
        try:
            rows[r.get("invoice_id")] = (r.get("status"), dec(r.get("open_amount")), int(r.get("days_overdue")))
        except (TypeError, ValueError):
            pass
    books = {(r.get("payment_id"), r.get("invoice_id")): dec(r.get("amount")) for r in table(os.path.join(out, "bookings.csv"))}
    try:
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
        unapplied = {(u["payment_id"], dec(u["amount_eur"])) for u in s["unapplied"]}
        aging = {k: dec(s["aging_eur"].get(k)) for k in BUCKETS}
    except Exception:
        unapplied, aging = None, {}
    return {"rows": rows, "bookings": books, "unapplied": unapplied, "aging": aging}


def read_findings(path):
    return {(r.get("payment_id"), r.get("invoice_id"), r.get("reason"), dec(r.get("reported")), dec(r.get("corrected")))
            for r in table(path)}


def share(want, got):
    """Share of expected entries reproduced exactly; extra entries count against it."""
    if isinstance(want, set):
        hit = len(want & got)
    else:
        hit = sum(1 for k, v in want.items() if k in got and got[k] == v)
    n = max(len(want), len(got))
    return 1.0 if n == 0 else hit / n


def score_close(want, got, collect=True):
    err = sum(abs((got["aging"].get(b) if got["aging"].get(b) is not None else Decimal(10 ** 9)) - want["aging"][b]) for b in BUCKETS)
    if collect:
        aging_scores.append(continuous(float(err), 0.005, 500.0))
    return round(0.5 * share(want["rows"], got["rows"]) + 0.2 * share(want["bookings"], got["bookings"])
                 + 0.2 * (got["unapplied"] == want["unapplied"]) + 0.1 * (err == 0), 9)


def write_case(tag, built):
    """Writes one hidden month; its planted answer is kept in memory only."""
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
    """Every hidden month of a kind with its planted answer, built before any submitted program runs."""
    try:
        rng = random.Random("%d@%s" % (SEED, kind))
        return [("%s%d" % (kind, i),) + write_case("%s%d" % (kind, i), generate(gen.build, rng, kind)) for i in range(n)]
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def close_case(tag, d, want, collect=True):
    code, _, err = run(["python3", TOOL, "close", d, d + "-out"], timeout=20)
    s = score_close(want, read_close(d + "-out"), collect)
    return s, "%s: %.3f%s" % (tag, s, (" exit %s %s" % (code, err.strip()[-100:])) if code else "")


def audit_case(tag, d, report, want):
    out = d + "-audit.csv"
    code, _, err = run(["python3", TOOL, "audit", d, report, out], timeout=20)
    s = share(want, read_findings(out))
    return s, "%s: %.3f%s" % (tag, s, (" exit %s %s" % (code, err.strip()[-100:])) if code else "")


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        if kind == "audit":
            res = [audit_case(tag, d, os.path.join(d, "report"), want["findings"]) for tag, d, want in cases]
        else:
            res = [close_case(*c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        src = os.path.join(HERE, "examples", ex)
        d = stage(os.path.join(src, "input"), ex)
        s, _ = close_case(ex, d, read_close(os.path.join(src, "expected")), collect=False)
        a, _ = audit_case(ex, d, stage(os.path.join(src, "report"), ex + "-report"), read_findings(os.path.join(src, "expected", "audit.csv")))
        ok.append(s == 1.0 and a == 1.0)
    return float(all(ok)), "examples right: %s" % ok


def monthly():
    """June's close (70%) and the audit of May's close report (30%), on the grader's copies."""
    june = os.path.join(HERE, "months", "2026-06")
    s, m1 = close_case("june", stage(os.path.join(june, "month"), "june"), read_close(os.path.join(june, "expected")), collect=False)
    may = os.path.join(HERE, "months", "2026-05")
    d = stage(os.path.join(may, "month"), "may")
    a, m2 = audit_case("may audit", d, os.path.join(d, "report"), read_findings(os.path.join(may, "expected-audit.csv")))
    return 0.7 * s + 0.3 * a, m1 + "; " + m2


CASES = {k: prepare(k, n) for k, n in (("import", 3), ("references", 3), ("allocation", 3), ("audit", 3))}
g.check("public_examples", public)
g.check("hidden_import", hidden("import"))
g.check("hidden_references", hidden("references"))
g.check("hidden_allocation", hidden("allocation"))
g.check("hidden_audit", hidden("audit"))
g.check("monthly_close", monthly)
g.check("aging_accuracy", lambda: (sum(aging_scores) / max(1, len(aging_scores)), "%d months" % len(aging_scores)))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
