"""Grades the repaired /app/minibuild.py: plans, explanations, builds and audits of seeded build
graphs whose answers come from gen.py (planned graphs, planted changes), the public examples and
the shipped project (its final state after the agent's build)."""
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lh import WORK, Grader, generate, present_steps, rng_for, run  # noqa: E402
import gen  # noqa: E402
import project as proj  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "minibuild.py")
PUB = os.path.join(HERE, "examples")


def write_case(d, files):
    for name, (data, mtime) in sorted(files.items()):
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (mtime, mtime))
        g.digest(name.encode() + b"\0" + data + str(mtime).encode())


def q(s):
    return "'" + s.replace("'", "'\\''") + "'"


def run_batch(label, jobs):
    """jobs: (id, kind, args). One sealed call runs every job; returns {id: (rc, text, folder)}."""
    inp = os.path.join(TMP, label)
    out = os.path.join(TMP, label + "-out")
    lines = ["IN=$1", "OUT=$2", "mkdir -p \"$OUT\""]
    reads = []
    for jid, kind, args in jobs:
        a = " ".join(q(x) for x in args) if kind != "audit" else ""
        if kind == "build":
            st = "state.json"
            if args and args[0].startswith("state="):
                st = args[0][len("state="):]
                a = " ".join(q(x) for x in args[1:])
            lines.append('cp -a "$IN/%s" "$OUT/%s" && (cd "$OUT/%s" && timeout 20 python3 %s build "$OUT/%s/Buildfile" '
                         '"$OUT/%s/%s" %s > "$OUT/%s.txt" 2>/dev/null; echo $? > "$OUT/%s.rc"; '
                         'timeout 20 python3 %s explain "$OUT/%s/Buildfile" "$OUT/%s/%s" > "$OUT/%s.after" 2>/dev/null)'
                         % (jid, jid, jid, q(TOOL), jid, jid, st, a, jid, jid, q(TOOL), jid, jid, st, jid))
        elif kind == "audit":
            case = args[0] if args else jid.split(".")[0]
            lines.append('timeout 20 python3 %s audit "$IN/%s" > "$OUT/%s.txt" 2>/dev/null; echo $? > "$OUT/%s.rc"'
                         % (q(TOOL), case, jid, jid))
        else:
            case = jid.split(".")[0]
            argv = ["python3", TOOL, kind, os.path.join(inp, case, "Buildfile"), os.path.join(inp, case, "state.json")]
            reads.append((len(lines), argv + list(args), jid))
            lines.append(None)
    # A plan only reads its workspace, so in a scaled child its Buildfile may reach the program
    # through the input channel (docs/scale.md); builds and explains are never presented.
    steps, ro = present_steps([argv for _, argv, _ in reads], (inp,), commands=("plan",))
    for (at, _, jid), argv in zip(reads, steps):
        lines[at] = 'timeout 20 %s > "$OUT/%s.txt" 2>/dev/null; echo $? > "$OUT/%s.rc"' % (
            " ".join(q(x) for x in argv), jid, jid)
    driver = os.path.join(TMP, label + "-driver.sh")
    with open(driver, "w") as f:
        f.write("\n".join(lines) + "\n")
    run(["bash", driver, inp, out], timeout=400, ro=ro)
    res = {}
    for jid, _, _ in jobs:
        try:
            rc = int(open(os.path.join(out, jid + ".rc")).read().strip())
        except Exception:
            rc = None
        try:
            text = open(os.path.join(out, jid + ".txt"), encoding="utf-8", errors="replace").read()
        except Exception:
            text = None
        res[jid] = (rc, text, os.path.join(out, jid))
    return res


def lines_of(text):
    return None if text is None else text.rstrip("\n").split("\n") if text.strip() else []


def prepare(label, fn, count):
    """Builds every case of a family before any submitted program runs; answers stay in memory."""
    try:
        rng = rng_for(label)
        cases = []
        for i in range(count):
            c = generate(fn, rng.fork("case%d" % i))
            cases.append(c)
        return cases
    except Exception as e:  # reported by that check; the other checks still run
        return e


def plan_check(label, fn, count, explain_weight=0.5):
    def check():
        cases = CASES[label]
        if isinstance(cases, Exception):
            raise cases
        d = os.path.join(TMP, label)
        jobs, want = [], {}
        for i, (gr, bf, state, goals) in enumerate(cases):
            cid = "c%d" % i
            files = gen.workspace(gr, bf, state if state else (state if i % 2 else None))
            write_case(os.path.join(d, cid), files)
            effective_goals = goals or ["all"]
            want[cid] = gen.plan_lines(gr, effective_goals, gr.files, state)
            jobs.append((cid + ".plan", "plan", goals))
            jobs.append((cid + ".explain", "explain", goals))
        res = run_batch(label, jobs)
        scores, notes = [], []
        for i in range(len(cases)):
            cid = "c%d" % i
            wplan, wexp = want[cid]
            err = wplan[0].startswith("error:")
            rc_ok = 2 if err else 0
            prc, ptext, _ = res[cid + ".plan"]
            erc, etext, _ = res[cid + ".explain"]
            s_plan = 1.0 if (prc == rc_ok and lines_of(ptext) == wplan) else 0.0
            got = lines_of(etext)
            s_exp = 1.0 if (got is not None and erc == rc_ok and got == wexp) else 0.0
            s = (1 - explain_weight) * s_plan + explain_weight * s_exp
            scores.append(s)
            notes.append("%s %.2f" % (cid, s))
        return sum(scores) / len(scores), "; ".join(notes)
    return check


def build_check():
    cases = CASES["build"]
    if isinstance(cases, Exception):
        raise cases
    d = os.path.join(TMP, "build")
    jobs, want = [], {}
    for i, (gr, bf, state, goals, keep_going) in enumerate(cases):
        cid = "c%d" % i
        write_case(os.path.join(d, cid), gen.workspace(gr, bf, state if state else None))
        runs, rc, final, after = gen.simulate_build(gr, ["all"], gr.files, state, keep_going)
        order, rs = gen.reasons(gr, ["all"], after, final)
        want[cid] = ([n for n in runs if not gr.targets[n]["phony"]], rc, final, ["%s %s" % (n, rs[n]) for n in order])
        jobs.append((cid, "build", ["-k"] if keep_going else []))
    res = run_batch("build", jobs)
    scores, notes = [], []
    for cid, (wruns, wrc, wstate, wafter) in sorted(want.items()):
        rc, _, folder = res[cid]
        try:
            got_runs = open(os.path.join(folder, "runs.log")).read().split()
        except Exception:
            got_runs = []
        s_runs = 1.0 if (got_runs == wruns and rc == wrc) else 0.0
        try:
            doc = json.load(open(os.path.join(folder, "state.json")))["targets"]
        except Exception:
            doc = {}
        keys = ("ok", "command", "inputs", "output")
        good = sum(1 for n, e in wstate.items()
                   if isinstance(doc.get(n), dict) and all(doc[n].get(k) == e.get(k) for k in keys))
        s_state = 1.0 if good == len(wstate) else 0.0
        try:
            got_after = lines_of(open(folder + ".after", encoding="utf-8").read())
        except Exception:
            got_after = None
        s_after = 1.0 if got_after == wafter else 0.0
        s = (s_runs + s_state + s_after) / 3
        scores.append(s)
        notes.append("%s %.2f" % (cid, s))
    return sum(scores) / len(scores), "; ".join(notes)


def read_rows(text):
    if text is None:
        return None
    rows = [r.strip() for r in text.strip().split("\n")]
    if not rows or rows[0].replace(" ", "") != "target,verdict,reason":
        return None
    out = set()
    for r in rows[1:]:
        if r:
            out.add(tuple(c.strip() for c in r.split(",")))
    return out


def rows_score(want, got):
    if got is None:
        return 0.0
    n = max(len(want), len(got))
    return 1.0 if n == 0 else len(want & got) / n


def audit_check():
    cases = CASES["audit"]
    if isinstance(cases, Exception):
        raise cases
    d = os.path.join(TMP, "audit")
    jobs, want = [], {}
    for i, (gr, bf, state, log, rows) in enumerate(cases):
        cid = "c%d" % i
        files = gen.workspace(gr, bf, state)
        files["build.log"] = (log.encode(), gen.T0 + 2000)
        write_case(os.path.join(d, cid), files)
        want[cid] = rows
        jobs.append((cid + ".audit", "audit", []))
    res = run_batch("audit", jobs)
    scores, notes = [], []
    for cid, rows in sorted(want.items()):
        rc, text, _ = res[cid + ".audit"]
        s = rows_score(rows, read_rows(text)) if rc == 0 else 0.0
        scores.append(s)
        notes.append("%s %.2f" % (cid, s))
    return sum(scores) / len(scores), "; ".join(notes)


def public():
    """Both public examples: plan and explain of example1, audit of example2 (answers kept here)."""
    d = os.path.join(TMP, "public")
    shutil.copytree(os.path.join(PUB, "example1", "workspace"), os.path.join(d, "e1"))
    shutil.copytree(os.path.join(PUB, "example2", "case"), os.path.join(d, "e2"))
    for root, _, names in os.walk(os.path.join(PUB)):
        for n in names:
            g.digest(n)
    res = run_batch("public", [("e1.plan", "plan", []), ("e1.explain", "explain", []), ("e2.audit", "audit", [])])
    ok, notes = [], []
    for jid, want_file in (("e1.plan", "example1/expected/plan.txt"), ("e1.explain", "example1/expected/explain.txt"),
                           ("e2.audit", "example2/expected/audit.csv")):
        rc, text, _ = res[jid]
        want = open(os.path.join(PUB, want_file)).read()
        if jid.endswith("audit"):
            good = rc == 0 and read_rows(text) == read_rows(want)
        else:
            good = rc == 0 and lines_of(text) == lines_of(want)
        ok.append(good)
        if not good:
            notes.append(jid)
    return float(all(ok)), "%d of 3 outputs right%s" % (sum(ok), ("; wrong: " + ", ".join(notes)) if notes else "")


def project():
    """The shipped project, rebuilt here from project.py: one build of its default goal on a fresh
    copy (then explain), and audits of its two recorded builds."""
    files, ans = proj.build()
    write_case(os.path.join(TMP, "project", "ws"), files)
    jobs = [("ws", "build", ["state=.minibuild/state.json"])] + [("audit-" + n, "audit", ["ws/audits/" + n]) for n in sorted(ans["audits"])]
    res = run_batch("project", jobs)
    rc, log, folder = res["ws"]
    audits = {n: res["audit-" + n][1] if res["audit-" + n][0] == 0 else None for n in ans["audits"]}
    return proj.grade_project(ans, folder, rc, log, audits, read_rows)


CASES = {
    "order": prepare("order", gen.case_order, 8),
    "variables": prepare("variables", gen.case_variables, 6),
    "patterns": prepare("patterns", gen.case_patterns, 8),
    "dirty": prepare("dirty", gen.case_dirty, 8),
    "build": prepare("build", gen.case_build, 8),
    "audit": prepare("audit", gen.case_audit, 8),
}
g.check("public_examples", public)
g.check("project_build", project)
g.check("hidden_order", plan_check("order", gen.case_order, 8))
g.check("hidden_variables", plan_check("variables", gen.case_variables, 6, explain_weight=0.0))
g.check("hidden_patterns", plan_check("patterns", gen.case_patterns, 8))
g.check("hidden_dirty", plan_check("dirty", gen.case_dirty, 8))
g.check("hidden_keep_going", build_check)
g.check("hidden_audit", audit_check)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
