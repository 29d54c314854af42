"""Grades /app/cnftool.py: solve on DIMACS files with a known answer (planted model or
unsatisfiable by construction; models checked clause by clause), card encodings checked by brute
force, puzzle answers from judge.py's direct backtracking, audits against planted claim defects."""
import csv
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import gen  # noqa: E402
import judge  # noqa: E402
import shipped  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "cnftool.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
_n = [0]


def scratch(tag):
    _n[0] += 1
    d = os.path.join(TMP, "%03d-%s" % (_n[0], tag))
    os.makedirs(d)
    return d


def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except Exception:
        return None


# ------------------------------------------------------------------ solve


def judge_result(text, want, nvars, clauses):
    """(ok, why) for a solve output against the known status; a SAT model is checked in full."""
    if text is None:
        return False, "no output"
    lines = [l.split() for l in text.splitlines() if l.strip()]
    status = [l for l in lines if l[0] == "s"]
    if len(status) != 1 or len(status[0]) != 2:
        return False, "no single status line"
    got = status[0][1]
    if got != want:
        return False, "%s, expected %s" % (got, want)
    if want != "SATISFIABLE":
        return True, got
    vals = []
    for l in lines:
        if l[0] == "v":
            try:
                vals += [int(t) for t in l[1:]]
            except ValueError:
                return False, "bad v line"
    if not vals or vals[-1] != 0 or 0 in vals[:-1]:
        return False, "values not closed by a single 0"
    vals = vals[:-1]
    if len(vals) != nvars or {abs(v) for v in vals} != set(range(1, nvars + 1)):
        return False, "values do not name each of the %d variables once (%d given)" % (nvars, len(vals))
    bad = gen.falsified(clauses, set(vals))
    if bad is not None:
        return False, "model leaves clause %d false" % bad
    return True, got


def solve_case(tag, text, want, nvars, clauses):
    d = scratch(tag)
    ip, op = os.path.join(d, "in.cnf"), os.path.join(d, "out.txt")
    with open(ip, "w", encoding="utf-8") as f:
        f.write(text)
    code, _, err = run(["python3", TOOL, "solve", ip, op], timeout=30)
    ok, why = judge_result(read_text(op), want, nvars, clauses)
    msg = "%s %s" % (tag, "ok" if ok else why)
    if not ok and code:
        msg += " (exit %s %s)" % (code, err.strip()[-80:])
    return (1.0 if ok else 0.0), msg


def dimacs_cases(rng):
    cases = []
    n = rng.randint(18, 30)
    cl, _ = gen.planted_sat(rng, n, int(n * 3.6), (2, 3, 3, 4))
    cases.append(("stream-percent", gen.render_cnf(rng, n, cl, "stream", 2, True, 3), "SATISFIABLE", n, cl))
    n = rng.randint(18, 30)
    cl, _ = gen.planted_sat(rng, n, int(n * 3.6), (2, 3, 3, 4))
    nv = n + rng.randint(1, 4)
    cases.append(("packed-freevars", gen.render_cnf(rng, nv, cl, "packed", 1, False, 2), "SATISFIABLE", nv, cl))
    n = rng.randint(18, 30)
    cl, _ = gen.planted_sat(rng, n, int(n * 3.6), (2, 3, 3, 4))
    nv = n + rng.randint(1, 3)
    cases.append(("split-percent-freevars", gen.render_cnf(rng, nv, cl, "split", 0, True, 2), "SATISFIABLE", nv, cl))
    n = rng.randint(15, 25)
    cl = gen.core_unsat(rng, n, int(n * 3.5))
    cases.append(("unsat-stream-percent", gen.render_cnf(rng, n, cl, "stream", 1, True, 2), "UNSATISFIABLE", n, cl))
    n = rng.randint(15, 25)
    cl, model = gen.planted_sat(rng, n, int(n * 3.6), (2, 3, 3, 4))
    for _ in range(3):
        v = rng.randint(1, n)
        cl.insert(rng.randrange(len(cl)), [v, -v, rng.randint(1, n)])
    c = cl[rng.randrange(len(cl))]
    c.append(c[0])
    cases.append(("tautologies-comments", gen.render_cnf(rng, n + 1, cl, "plain", 3, False, 5), "SATISFIABLE", n + 1, cl))
    kinds = ["count", "range", "unterminated", rng.choice(["noheader", "token"])]
    for kind in kinds:
        n = rng.randint(12, 25)
        cl, _ = gen.planted_sat(rng, n, int(n * 3.5))
        cases.append(("malformed-" + kind, gen.malform(rng, n, cl, kind), "MALFORMED", n, cl))
    return cases


def solve_cases(rng):
    cases = []
    for i, (n, ratio, widths) in enumerate([(rng.randint(45, 60), 4.2, (3,)), (rng.randint(50, 70), 3.5, (2, 3, 3, 4)),
                                            (rng.randint(60, 80), 4.0, (3, 3, 4)), (rng.randint(30, 45), 3.2, (2, 3))]):
        cl, _ = gen.planted_sat(rng, n, int(n * ratio), widths)
        lay = rng.choice(["plain", "packed"])
        cases.append(("planted%d-n%d" % (i + 1, n), gen.render_cnf(rng, n, cl, lay, 1), "SATISFIABLE", n, cl))
    for h in (4, rng.randint(4, 5)):
        cl, nv = gen.pigeonhole(rng, h)
        cases.append(("pigeonhole-%d-%d" % (h + 1, h), gen.render_cnf(rng, nv, cl, "plain", 1), "UNSATISFIABLE", nv, cl))
    n = rng.randint(20, 30)
    cl = gen.core_unsat(rng, n, int(n * 3.8))
    cases.append(("core-n%d" % n, gen.render_cnf(rng, n, cl, "packed", 1), "UNSATISFIABLE", n, cl))
    return cases


# ------------------------------------------------------------------ card


def card_case(kind, n, k):
    d = scratch("card")
    op = os.path.join(d, "out.cnf")
    code, _, err = run(["python3", TOOL, "card", kind, str(n), str(k), op], timeout=30)
    text = read_text(op)
    tag = "%s %d of %d" % (kind, k, n)
    if text is None:
        return 0.0, "%s: no file (exit %s %s)" % (tag, code, err.strip()[-80:])
    try:
        ok, why = judge.check_card(kind, n, k, text)
    except Exception as e:
        ok, why = False, "unreadable: %s" % e
    return (1.0 if ok else 0.0), "%s: %s" % (tag, why)


def card_specs(rng):
    return [("atmost", rng.randint(6, 8), rng.randint(2, 3)), ("atmost", rng.randint(5, 7), 1),
            ("atmost", rng.randint(4, 6), 0), ("atleast", rng.randint(6, 8), rng.randint(2, 4)),
            ("atleast", rng.randint(4, 6), 7), ("exactly", rng.randint(6, 7), 2),
            ("exactly", rng.randint(5, 7), 1), ("atmost", 5, rng.randint(5, 6))]


# ------------------------------------------------------------------ puzzles and audits


def puzzle_case(tag, text, want):
    d = scratch(tag)
    ip, op = os.path.join(d, "in.pzl"), os.path.join(d, "out.txt")
    with open(ip, "w", encoding="utf-8") as f:
        f.write(text)
    code, _, err = run(["python3", TOOL, "puzzle", ip, op], timeout=60)
    got = read_text(op)
    lines = None if got is None else [" ".join(l.split()) for l in got.splitlines() if l.strip()]
    if lines == want:
        return 1.0, "%s ok" % tag
    if lines is None:
        return 0.0, "%s: no answer (exit %s %s)" % (tag, code, err.strip()[-80:])
    diff = next((i for i, (a, b) in enumerate(zip(lines, want)) if a != b), min(len(lines), len(want)))
    return 0.0, "%s: line %d %r, expected %r" % (tag, diff + 1, lines[diff] if diff < len(lines) else None,
                                                 want[diff] if diff < len(want) else None)


def audit_case(tag, files, want):
    d = scratch(tag)
    folder = os.path.join(d, "claims")
    os.makedirs(folder)
    for name, text in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(text)
    op = os.path.join(d, "audit.csv")
    code, _, err = run(["python3", TOOL, "audit", folder, op], timeout=120)
    got = {}
    try:
        with open(op, newline="", encoding="utf-8") as f:
            for r in csv.DictReader(f):
                got[(r.get("instance") or "").strip()] = ((r.get("code") or "").strip(), (r.get("detail") or "").strip())
    except Exception:
        return 0.0, "%s: no audit.csv (exit %s %s)" % (tag, code, err.strip()[-80:])
    right = sum(1 for k, v in want.items() if got.get(k) == v)
    share = right / max(len(want), len(got))
    s = 0.5 * (got == want) + 0.5 * share
    wrong = ["%s %s/%s" % (k, got.get(k, ("-",))[0], v[0]) for k, v in sorted(want.items()) if got.get(k) != v]
    return s, "%s %.3f (%d/%d rows right%s)" % (tag, s, right, len(want), "; wrong: " + ", ".join(wrong[:4]) if wrong else "")


# ------------------------------------------------------------------ plan every hidden case first


def plan(label, build):
    rng = random.Random("%d|%s" % (SEED, label))
    cases = generate(build, rng)
    for c in cases:
        g.digest(repr(c[1]) if not isinstance(c[1], str) else c[1])
    return cases


def build_puzzles(rng):
    kinds = [("unique", False, True), ("multi", False, True), ("tight", False, False), ("multi", True, True),
             ("tight", True, True), ("infeasible", rng.random() < 0.5, False), ("unique", True, False)]
    out = []
    for i, (kind, heavy, near) in enumerate(kinds):
        text, _, want = gen.puzzle_case(rng, kind, heavy, near)
        out.append(("p%d-%s%s" % (i + 1, kind, "-heavy" if heavy else ""), text, want))
    return out


def build_audits(rng):
    out = []
    for i in range(2):
        files, want = gen.audit_folder(rng, gen.AUDIT_KINDS if i == 0 else rng.sample(gen.AUDIT_KINDS, 10))
        out.append(("claims%d" % (i + 1), files, want))
    return out


DIMACS = plan("hidden_dimacs", dimacs_cases)
SOLVE = plan("hidden_solve", solve_cases)
CARD = plan("hidden_card", lambda rng: [(k, (k, n, kk)) for k, n, kk in card_specs(rng)])
PUZZLES = plan("hidden_puzzles", build_puzzles)
AUDITS = plan("hidden_audit", build_audits)


def mean_of(results):
    return sum(r[0] for r in results) / len(results), "; ".join(r[1] for r in results)


def public():
    ok, notes = [], []
    base = os.path.join(PUB, "solve")
    want = dict(l.split() for l in open(os.path.join(base, "expected.txt")) if l.strip())
    for name in sorted(want):
        text = open(os.path.join(base, name), encoding="utf-8").read()
        nv, cl = shipped.reference_formula(name)
        s, msg = solve_case("public-" + name, text, want[name], nv, cl)
        ok.append(s == 1.0)
        notes.append(msg)
    base = os.path.join(PUB, "puzzles")
    for name in sorted(os.listdir(base)):
        if name.endswith(".pzl"):
            ans = [l.strip() for l in open(os.path.join(base, name[:-4] + ".ans")) if l.strip()]
            s, msg = puzzle_case("public-" + name, open(os.path.join(base, name), encoding="utf-8").read(), ans)
            ok.append(s == 1.0)
            notes.append(msg)
    base = os.path.join(PUB, "audit")
    files = {n: open(os.path.join(base, "claims", n), encoding="utf-8").read() for n in os.listdir(os.path.join(base, "claims"))}
    with open(os.path.join(base, "expected-audit.csv"), newline="", encoding="utf-8") as f:
        want = {r["instance"]: (r["code"], r["detail"]) for r in csv.DictReader(f)}
    s, msg = audit_case("public-audit", files, want)
    ok.append(s == 1.0)
    notes.append(msg)
    return float(all(ok)), "; ".join(notes)


def shipped_work():
    """The shipped batch and claims, rebuilt from their fixed seeds (answers kept here)."""
    res = [puzzle_case("batch-" + name, text, want) for name, text, want in shipped.batch()]
    files, want = shipped.claims()
    a = audit_case("shipped-claims", files, want)
    p = sum(r[0] for r in res) / len(res)
    return 0.5 * p + 0.5 * a[0], "batch %.3f: %s; %s" % (p, "; ".join(r[1] for r in res if r[0] < 1) or "all right", a[1])


g.check("public_examples", public)
g.check("shipped_work", shipped_work)
g.check("hidden_dimacs", lambda: mean_of([solve_case(*c) for c in DIMACS]))
g.check("hidden_solve", lambda: mean_of([solve_case(*c) for c in SOLVE]))
g.check("hidden_card", lambda: mean_of([card_case(*c[1]) for c in CARD]))
g.check("hidden_puzzles", lambda: mean_of([puzzle_case(*c) for c in PUZZLES]))
g.check("hidden_audit", lambda: mean_of([audit_case(*c) for c in AUDITS]))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
