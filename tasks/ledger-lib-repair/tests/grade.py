"""Grades the repaired /app/ledgerctl.py on the public books and on seeded hidden books whose
answers are summed from the generator's plan (gen.py) in integer cents."""
import csv, os, random, shutil, sys, tempfile
from decimal import Decimal, InvalidOperation
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "ledgerctl.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
COMMANDS = ("report", "revalue", "audit")


def stage(rel):
    """Copies a public input from the grader's copy into scratch space and returns the copy's path."""
    src, dst = os.path.join(PUB, rel), os.path.join(TMP, "public", rel)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def cents(text):
    """A money field as integer cents, or None when it is not exactly a two-decimal amount."""
    try:
        v = Decimal((text or "").strip()) * 100
    except InvalidOperation:
        return None
    return int(v) if v == v.to_integral_value() else None


def micro(text):
    try:
        v = Decimal((text or "").strip()) * gen.MICRO
    except InvalidOperation:
        return None
    return int(v) if v == v.to_integral_value() else None


def rows(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except Exception:
        return None


def read_report(path):
    got = {}
    for r in rows(path) or []:
        got[(r.get("period"), r.get("account"))] = (r.get("currency"), cents(r.get("balance")), cents(r.get("base_balance")))
    return got


def read_revalue(path):
    got = {}
    for r in rows(path) or []:
        got[(r.get("period"), r.get("account"))] = (r.get("currency"), cents(r.get("balance")), micro(r.get("rate")),
                                                   cents(r.get("revalued_base")), cents(r.get("base_balance")),
                                                   cents(r.get("unrealised")))
    return got


def read_audit(path):
    got = set()
    for r in rows(path) or []:
        try:
            got.add((int(r.get("line")), (r.get("date") or "").strip(), (r.get("reason") or "").strip()))
        except (TypeError, ValueError):
            got.add(("?", r.get("date"), r.get("reason")))
    return got


def share(want, got):
    """Share of expected rows reproduced exactly; extra rows count against it."""
    if isinstance(want, set):
        ok = len(want & got)
    else:
        ok = sum(1 for k, v in want.items() if got.get(k) == v)
    n = max(len(want), len(got))
    return 1.0 if n == 0 else ok / n


READ = {"report": read_report, "revalue": read_revalue, "audit": read_audit}


def execute(command, book, out):
    code, _, err = run(["python3", TOOL, command, book, out], timeout=20)
    return code, err.strip()[-120:]


def write_case(tag, built):
    """Writes one hidden book; its planned answers stay in memory only."""
    files, want = built
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    return d, want


def prepare(kind, n):
    """Every hidden book of a kind with its answers, built before any submitted program runs."""
    try:
        rng = random.Random("%d#%s" % (SEED, kind))
        return [("%s%d" % (kind, i),) + write_case("%s%d" % (kind, i), generate(gen.build, rng, kind)) for i in range(n)]
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def as_cents(report):
    return {k: (c, n, b) for k, (c, n, b) in report.items()}


def score_case(kind, tag, d, want):
    report, reval, audit = want
    parts = []
    if kind == "revalue":
        code, err = execute("revalue", d, d + "-revalue.csv")
        s = share(reval, read_revalue(d + "-revalue.csv"))
    elif kind == "audit":
        code, err = execute("audit", d, d + "-audit.csv")
        a = share(set(audit), read_audit(d + "-audit.csv"))
        code2, err2 = execute("report", d, d + "-report.csv")
        r = share(as_cents(report), read_report(d + "-report.csv"))
        s = 0.7 * a + 0.3 * r
        parts.append("audit %.3f report %.3f" % (a, r))
        code, err = (code or code2), (err or err2)
    else:
        code, err = execute("report", d, d + "-report.csv")
        s = share(as_cents(report), read_report(d + "-report.csv"))
    msg = "%s: %.3f%s" % (tag, s, (" (" + parts[0] + ")") if parts else "")
    if code:
        msg += " exit %s %s" % (code, err)
    return s, msg


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        res = [score_case(kind, *c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def public():
    ok, notes = [], []
    for ex in ("example1", "example2"):
        book = stage(ex + "/book")
        for command in COMMANDS:
            out = os.path.join(TMP, "%s-%s.csv" % (ex, command))
            code, err = execute(command, book, out)
            want = READ[command](os.path.join(PUB, ex, "expected", command + ".csv"))
            good = code == 0 and share(want, READ[command](out)) == 1.0
            ok.append(good)
            if not good:
                notes.append("%s %s: exit %s %s" % (ex, command, code, err))
    return float(all(ok)), "%d of %d outputs right%s" % (sum(ok), len(ok), ("; " + "; ".join(notes)) if notes else "")


KINDS = (("posting", 2), ("periods", 2), ("rates", 2), ("revalue", 2), ("audit", 2))
CASES = {k: prepare(k, n) for k, n in KINDS}
g.check("public_examples", public)
g.check("hidden_posting", hidden("posting"))
g.check("hidden_periods", hidden("periods"))
g.check("hidden_rates", hidden("rates"))
g.check("hidden_revaluation", hidden("revalue"))
g.check("hidden_audit", hidden("audit"))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
