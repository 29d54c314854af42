"""Grades /app/reconcile.py on freshly generated ledgers whose answers are planted by construction (gen.py)."""
import csv, json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, continuous, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "reconcile.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")


def stage(rel):
    """Copies a public input from the grader's copy into scratch space and returns the copy's path."""
    src, dst = os.path.join(PUB, rel), os.path.join(TMP, "public", rel)
    if os.path.isdir(src):
        shutil.copytree(src, dst, symlinks=True)
    else:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
    return dst
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


def write_case(tag, built):
    """Writes one hidden case; its planted answer is kept in memory only."""
    files, want = built
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    return d, want


def prepare(kind, n):
    """Every hidden case of a kind with its planted answer, built before any submitted program runs,
    so nothing such a program does (or leaves running) can reach the answers."""
    try:
        rng = random.Random("%d@%s" % (SEED, kind))
        return [("%s%d" % (kind, i),) + write_case("%s%d" % (kind, i), generate(gen.build, rng, kind)) for i in range(n)]
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def run_case(tag, d, want):
    code, _, err = run(["python3", TOOL, d, d + "-out"], timeout=20)
    s = compare(want, read(d + "-out"))
    return s, "%s: %.3f (exit %s)%s" % (tag, s, code, (" " + err.strip()[-100:]) if code else "")


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        res = [run_case(*c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def public():
    ok = []
    for ex in ("example1", "example2"):
        want = read(os.path.join(PUB, ex, "expected"))
        out = os.path.join(TMP, ex + "-out")
        run(["python3", TOOL, stage(ex + "/input"), out], timeout=20)
        ok.append(compare(want, read(out), collect=False) == 1.0)
    return float(all(ok)), "examples right: %s" % ok


CASES = {k: prepare(k, n) for k, n in (("plain", 2), ("references", 3), ("fx", 3), ("allocation", 3))}
g.check("public_examples", public)
g.check("hidden_plain", hidden("plain"))
g.check("hidden_references", hidden("references"))
g.check("hidden_fx", hidden("fx"))
g.check("hidden_allocation", hidden("allocation"))
g.check("aging_accuracy", lambda: (sum(aging_scores) / max(1, len(aging_scores)), "%d ledgers" % len(aging_scores)))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
