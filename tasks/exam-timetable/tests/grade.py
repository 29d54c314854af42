"""Grades /app/examtt.py: audits of damaged timetables (expected rows from judge.py on the planned
model) and timetables it produces (checked by judge.py; optimising instances against the planted
optimum, which meets the per-student lower bound)."""
import csv, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run
import examples, gen, judge

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "examtt.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
SOLVE_TIMEOUT = 120


def read_csv(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except Exception:
        return None


def read_audit(path):
    rows = read_csv(path)
    if rows is None:
        return None
    return {((r.get("code") or "").strip(), (r.get("subject") or "").strip()) for r in rows}


def read_timetable(path):
    rows = read_csv(path)
    if rows is None:
        return None, "no timetable written"
    out = []
    try:
        for r in rows:
            out.append((r["exam"].strip(), int(r["day"]), int(r["slot"]), r["room"].strip(), int(r["seats"])))
    except Exception as e:
        return None, "unreadable timetable row: %s" % type(e).__name__
    return out, ""


def share(want, got):
    if got is None:
        return 0.0
    n = max(len(want), len(got))
    return 1.0 if n == 0 else len(want & got) / n


def audit_case(tag, inst_bytes, prop_bytes, want):
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    ip, pp, op = os.path.join(d, "instance.ett"), os.path.join(d, "proposal.csv"), os.path.join(d, "audit.csv")
    open(ip, "wb").write(inst_bytes)
    open(pp, "wb").write(prop_bytes)
    code, _, err = run(["python3", TOOL, "audit", ip, pp, op], timeout=30)
    got = read_audit(op)
    # Half for the exact list, half for the share of rows right (extra rows count against it).
    s = 0.5 * (got == want) + 0.5 * share(want, got)
    msg = "%s %.3f (%d expected, %s written)" % (tag, s, len(want), "no file" if got is None else len(got))
    if code:
        msg += " exit %s %s" % (code, err.strip()[-100:])
    return s, msg


def solve_case(tag, inst_bytes, m, best):
    """1 for a valid timetable (and, when optimising, the planted optimum); 0 for an invalid one."""
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    ip, op = os.path.join(d, "instance.ett"), os.path.join(d, "timetable.csv")
    open(ip, "wb").write(inst_bytes)
    code, _, err = run(["python3", TOOL, "solve", ip, op], timeout=SOLVE_TIMEOUT)
    rows, why = read_timetable(op)
    if rows is None:
        return 0.0, "%s: %s (exit %s %s)" % (tag, why, code, err.strip()[-100:])
    bad = judge.structure_errors(m, rows)
    if bad:
        return 0.0, "%s: %s" % (tag, bad[0])
    found = sorted(judge.audit(m, rows))
    if found:
        return 0.0, "%s: %d violations, e.g. %s %s" % (tag, len(found), found[0][0], found[0][1])
    if best is None:
        return 1.0, "%s: valid" % tag
    pen = judge.back_to_back(m, rows)
    cutoff = max(2, best // 10)
    s = max(0.0, 1.0 - max(0, pen - best) / cutoff)
    return s, "%s: valid, back-to-back %d (optimum %d)" % (tag, pen, best)


def build_case(rng, label, i, kind, heavy, mode):
    m, rows = gen.build(rng, kind)
    text = gen.render(m, rng, heavy)
    tag = "%s%d-%s" % (label, i, kind)
    if mode == "audit":
        prop, _ = gen.damage(m, rows, rng)
        return ("audit", tag, text, gen.rows_csv(prop), judge.audit(m, prop))
    best = judge.lower_bound(m) if m["optimise"] else None
    if best is not None and judge.back_to_back(m, rows) != best:
        raise ValueError("planted timetable is not optimal")
    if judge.audit(m, rows) or judge.structure_errors(m, rows):
        raise ValueError("planted timetable is not valid")
    return ("solve", tag, text, m, best)


def plan(label, specs):
    """Every hidden case of a check, built before any submitted program runs."""
    rng = random.Random("%d|%s" % (SEED, label))
    cases = []
    for i, (kind, heavy, mode) in enumerate(specs):
        case = generate(build_case, rng, label, i, kind, heavy, mode)
        g.digest(case[2])
        if case[0] == "audit":
            g.digest(case[3])
        cases.append(case)
    return cases


def hidden(cases):
    def fn():
        res = []
        for c in cases:
            res.append(audit_case(*c[1:]) if c[0] == "audit" else solve_case(*c[1:]))
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def public():
    ok, notes = [], []
    for ex in ("spring", "autumn"):
        base = os.path.join(PUB, ex)
        inst = open(os.path.join(base, "instance.ett"), "rb").read()
        prop = open(os.path.join(base, "proposal.csv"), "rb").read()
        want = read_audit(os.path.join(base, "expected-audit.csv"))
        s, msg = audit_case("public-" + ex + "-audit", inst, prop, want)
        ok.append(s == 1.0)
        notes.append(msg)
        m = public_model(base)
        best_file = os.path.join(base, "best-penalty.txt")
        best = int(open(best_file).read().split()[0]) if os.path.exists(best_file) else None
        s, msg = solve_case("public-" + ex + "-solve", inst, m, best)
        ok.append(s == 1.0)
        notes.append(msg)
    return float(all(ok)), "; ".join(notes)


def public_model(base):
    """The public instances' models, rebuilt from the fixed seeds that made them (examples.py)."""
    return examples.model_for(os.path.basename(base))


SPECS = {
    "hidden_syntax": [("audit", True, "audit"), ("audit", True, "audit"), ("tight", True, "audit")],
    "hidden_audit": [("audit", False, "audit"), ("audit", False, "audit"), ("tight", False, "audit")],
    "hidden_feasible": [("loose", False, "solve"), ("tight", False, "solve"), ("tight", False, "solve"),
                        ("tight", True, "solve")],
    "hidden_optimise": [("optimise", False, "solve"), ("optimise4", False, "solve"), ("optimise", True, "solve")],
}
CASES = {k: plan(k, v) for k, v in SPECS.items()}
g.check("public_examples", public)
for k in SPECS:
    g.check(k, hidden(CASES[k]))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
