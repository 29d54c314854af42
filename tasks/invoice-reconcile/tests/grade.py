"""Grades /app/reconcile.py against the reference reconciliation of freshly generated ledgers."""
import csv, json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, continuous, run
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "reconcile.py")
REF = "/tests/ref_reconcile.py"
aging_scores = []


def read(out):
    try:
        with open(os.path.join(out, "invoices.csv"), newline="") as f:
            inv = {r["invoice_id"]: (r["status"], float(r["open_amount"]), int(r["days_overdue"])) for r in csv.DictReader(f)}
    except Exception:
        inv = {}
    try:
        s = json.load(open(os.path.join(out, "summary.json")))
        un = {(u["payment_id"], round(float(u["amount_eur"]), 2)) for u in s["unapplied"]}
        aging = {k: float(v) for k, v in s["aging_eur"].items()}
    except Exception:
        un, aging = None, {}
    return inv, un, aging


def compare(want, got, collect=True):
    (wi, wu, wa), (gi, gu, ga) = want, got
    ok = sum(1 for k, v in wi.items() if k in gi and gi[k][0] == v[0] and abs(gi[k][1] - v[1]) < 0.005 and gi[k][2] == v[2])
    rows = ok / max(len(wi), len(gi), 1)
    un = 1.0 if gu == wu else 0.0
    err = sum(abs(ga.get(k, 1e9) - v) for k, v in wa.items())
    if collect:
        aging_scores.append(continuous(err, 0.011, 500.0))
    return round(0.7 * rows + 0.2 * un + 0.1 * (err < 0.011), 9)


def run_case(tag, files):
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    run(["python3", REF, d, d + "-ref"], timeout=60)
    code, _, err = run(["python3", TOOL, d, d + "-out"], timeout=20)
    s = compare(read(d + "-ref"), read(d + "-out"))
    return s, "%s: %.3f (exit %s)%s" % (tag, s, code, (" " + err.strip()[-100:]) if code else "")


def hidden(kind, n):
    def fn():
        rng = random.Random("%d@%s" % (SEED, kind))
        res = [run_case("%s%d" % (kind, i), gen.build(rng, kind)) for i in range(n)]
        return sum(r[0] for r in res) / n, "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        d = os.path.join(WORK, "examples", ex)
        out = os.path.join(TMP, ex + "-out")
        run(["python3", TOOL, os.path.join(d, "input"), out], timeout=20)
        ok.append(compare(read(os.path.join(d, "expected")), read(out), collect=False) == 1.0)
    return float(all(ok)), "examples right: %s" % ok


g.check("public_examples", public)
g.check("hidden_plain", hidden("plain", 2))
g.check("hidden_references", hidden("references", 3))
g.check("hidden_fx", hidden("fx", 3))
g.check("hidden_allocation", hidden("allocation", 3))
g.check("aging_accuracy", lambda: (sum(aging_scores) / max(1, len(aging_scores)), "%d ledgers" % len(aging_scores)))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
