"""Grades /app/rxsim.py on the paper's cases and on seeded hidden mechanisms.

Expected values never come from an ODE integrator: linear networks use the exact matrix
exponential (expm_ref), reversible nonlinear networks a planted equilibrium, and the audit exact
element totals (gen.py).
"""
import csv, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "rxsim.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
REL = 2e-4      # relative tolerance on concentrations and crossing times
ABS = 1e-9      # absolute tolerance, times the run's total initial concentration (or t_end)
CONS = 1e-6     # tolerance on conserved totals (relative) and on a balanced run's drift
events = []     # (got ok?) for every hidden threshold with an exact answer


def stage(rel):
    """Copies a public input from the grader's copy into scratch space and returns the copy's path."""
    src, dst = os.path.join(PUB, rel), os.path.join(TMP, "public", rel)
    if os.path.isdir(src):
        shutil.copytree(src, dst, symlinks=True)
    else:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
    return dst


def close(got, want, scale):
    return got is not None and abs(got - want) <= REL * abs(want) + ABS * scale


def num(s):
    try:
        s = (s or "").strip()
        return None if s == "" else float(s)
    except ValueError:
        return None


def read_csv(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except Exception:
        return []


def read_out(out):
    conc = {}
    for r in read_csv(os.path.join(out, "concentrations.csv")):
        conc.setdefault((r.get("run") or "").strip(), []).append(r)
    ev = {(r.get("run") or "").strip(): r for r in read_csv(os.path.join(out, "events.csv"))}
    cons = {((r.get("run") or "").strip(), (r.get("element") or "").strip()): r
            for r in read_csv(os.path.join(out, "conservation.csv"))}
    return conc, ev, cons


def conc_rows_right(rows, names, times, states, cref):
    """Share of requested times whose row (in order) has t and every species right."""
    ok = 0
    for i, (t, want) in enumerate(zip(times, states)):
        if i >= len(rows):
            break
        r = rows[i]
        tt = num(r.get("t"))
        good = tt is not None and abs(tt - t) <= 1e-9 * abs(t)
        good = good and all(close(num(r.get(s)), w, cref) for s, w in zip(names, want))
        ok += good
    return ok / max(len(times), len(rows), 1)


def event_right(row, want, t_end):
    if row is None:
        return False
    if want is None:
        return (row.get("t_cross") or "").strip() == ""
    return close(num(row.get("t_cross")), want, t_end)


def run_tool(case_dir, out_dir):
    code, _, err = run(["python3", TOOL, case_dir, out_dir], timeout=120)
    return code, err.strip()[-160:]


def write_case(tag, files):
    d = os.path.join(TMP, tag)
    for name, data in sorted(files.items()):
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    return d


def score_linear(case_dir, exp, collect_events=True):
    out = case_dir + "-out"
    code, err = run_tool(case_dir, out)
    conc, ev, _ = read_out(out)
    scores = []
    for e in exp["runs"]:
        cref = sum(e["c0"])
        scores.append(conc_rows_right(conc.get(e["id"], []), exp["names"], e["times"], e["conc"], cref))
        if collect_events and e["event"] is not None:
            events.append(event_right(ev.get(e["id"]), e["event"][2], e["times"][-1]))
    return sum(scores) / len(scores), code, err


def score_equilibrium(case_dir, exp):
    out = case_dir + "-out"
    code, err = run_tool(case_dir, out)
    conc, _, _ = read_out(out)
    names, species = exp["names"], exp["species"]
    els = sorted({el for _, comp in species for el in comp})
    scores = []
    for e in exp["runs"]:
        rows = conc.get(e["id"], [])
        cref = sum(e["c0"])
        if len(rows) != len(e["times"]):
            scores.append(0.0)
            continue
        final = rows[-1]
        eq_ok = all(close(num(final.get(s)), w, cref) for s, w in zip(names, e["eq"]))
        kept = 0
        for r in rows:
            vals = [num(r.get(s)) for s in names]
            if None in vals:
                continue
            good = True
            for el in els:
                init = sum(comp.get(el, 0) * c for (_, comp), c in zip(species, e["c0"]))
                now = sum(comp.get(el, 0) * c for (_, comp), c in zip(species, vals))
                good = good and abs(now - init) <= CONS * max(abs(init), 1e-300)
            kept += good
        # The planted equilibrium must be reached; a run that also breaks an element balance on
        # the way gets half.
        scores.append(float(eq_ok) * (1.0 if kept == len(rows) else 0.5))
    return sum(scores) / len(scores), code, err


def cons_row_right(row, want, balanced):
    el, init, final, drift = want
    if row is None:
        return False
    gi, gf, gd = num(row.get("initial")), num(row.get("final")), num(row.get("max_rel_drift"))
    if gi is None or gf is None or gd is None:
        return False
    ok = abs(gi - init) <= 1e-9 * abs(init)
    if balanced:
        return ok and abs(gf - init) <= CONS * abs(init) and abs(gd) <= CONS
    return ok and close(gf, final, init) and abs(gd - drift) <= REL * drift + CONS


def hidden(kind, n):
    def fn():
        rng = random.Random("%d/%s" % (SEED, kind))
        cases = []
        for i in range(n):
            files, exp = generate(gen.build, rng, kind)
            cases.append((write_case("%s%d" % (kind, i), files), exp))
        scores, msgs = [], []
        for i, (d, exp) in enumerate(cases):
            if kind in ("linear", "stiff"):
                s, code, err = score_linear(d, exp)
            elif kind == "reversible":
                s1, code, err = score_linear(os.path.join(d, "lin"), exp["lin"])
                s2, code2, err2 = score_equilibrium(os.path.join(d, "eq"), exp["eq"])
                s, code, err = 0.5 * s1 + 0.5 * s2, code or code2, err or err2
            else:
                s, code, err = audit(d, exp)
            scores.append(s)
            msgs.append("case %d: %.3f (exit %s)%s" % (i, s, code, (" " + err) if code else ""))
        return sum(scores) / n, "; ".join(msgs)
    return fn


def audit(d, exp):
    """Runs both audit mechanisms and scores their conservation.csv rows."""
    out_nl, out_leak = os.path.join(d, "nl-out"), os.path.join(d, "leak-out")
    code, err = run_tool(os.path.join(d, "nl"), out_nl)
    code2, err2 = run_tool(os.path.join(d, "leak"), out_leak)
    _, _, cons_nl = read_out(out_nl)
    conc_leak, _, cons_leak = read_out(out_leak)
    ok = []
    for rid, rows in exp["nl"]["cons"]:
        for want in rows:
            ok.append(cons_row_right(cons_nl.get((rid, want[0])), want, True))
    for e in exp["leak"]["runs"]:
        for want in e["cons"]:
            ok.append(cons_row_right(cons_leak.get((e["id"], want[0])), want, False))
    return sum(ok) / len(ok), code or code2, err or err2


def public():
    res = []
    for ex in ("example1", "example2"):
        want = read_out(os.path.join(PUB, ex, "expected"))
        out = os.path.join(TMP, ex + "-out")
        code, err = run_tool(stage(ex + "/input"), out)
        got = read_out(out)
        good = code == 0 and set(got[0]) == set(want[0]) and set(got[1]) == set(want[1]) and set(got[2]) == set(want[2])
        for rid, rows in want[0].items():
            names = [k for k in rows[0] if k not in ("run", "t")]
            cref = sum(abs(num(rows[0][s]) or 0.0) for s in names)
            grows = got[0].get(rid, [])
            good = good and conc_rows_right(grows, names, [num(r["t"]) for r in rows],
                                            [[num(r[s]) for s in names] for r in rows], cref) == 1.0
        for rid, row in want[1].items():
            t_end = num(want[0][rid][-1]["t"])
            good = good and event_right(got[1].get(rid), num(row["t_cross"]), t_end)
        for key, row in want[2].items():
            w = (key[1], num(row["initial"]), num(row["final"]), num(row["max_rel_drift"]))
            good = good and cons_row_right(got[2].get(key), w, w[3] <= CONS)
        res.append(bool(good))
    return float(all(res)), "examples right: %s" % res


g.check("public_examples", public)
g.check("hidden_linear", hidden("linear", 3))
g.check("hidden_reversible", hidden("reversible", 3))
g.check("hidden_stiff", hidden("stiff", 3))
g.check("threshold_times", lambda: (sum(events) / max(1, len(events)), "%d of %d crossing times right" % (sum(events), len(events))))
g.check("conservation_audit", hidden("audit", 3))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
