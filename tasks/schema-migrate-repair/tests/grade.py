"""Grades the repaired /app/migrate.py (migrate, down, baseline, audit, history) on seeded
migration folders and databases planned in gen.py, the public examples, and the agent's
/app/upgrade_legacy.py on the grader's own copy of the shipped legacy database (project.py)."""
import os
import shutil
import sqlite3
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lh import WORK, Grader, generate, present_steps, rng_for, run  # noqa: E402
import gen  # noqa: E402
import project as proj  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "migrate.py")
UPGRADE = os.path.join(WORK, "upgrade_legacy.py")
PUB = os.path.join(HERE, "examples")


def q(s):
    return "'" + s.replace("'", "'\\''") + "'"


def write_files(folder, files):
    os.makedirs(folder, exist_ok=True)
    for name, data in sorted(files.items()):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + b"\0" + data)


def write_case(folder, case):
    write_files(os.path.join(folder, "migrations"), case.files)
    case.build_db(os.path.join(folder, "app.db"))
    g.digest(repr((case.history, case.steps, case.pre_trace)))


def run_batch(label, jobs):
    """jobs: (id, steps); a step is an argument list for the tool after the database and folder
    (['@baseline', V] for baseline, ['@audit'] for an audit whose output is kept). One sealed call
    runs every job on writable copies; returns {id: (rcs, text, db path)}."""
    inp = os.path.join(TMP, label)
    out = os.path.join(TMP, label + "-out")
    lines = ["IN=$1", "OUT=$2", "mkdir -p \"$OUT\""]
    reads = []
    for jid, steps in jobs:
        lines.append('cp -a "$IN/%s" "$OUT/%s"' % (jid, jid))
        lines.append(': > "$OUT/%s.rcs"; : > "$OUT/%s.txt"' % (jid, jid))
        db, mig = '"$OUT/%s/app.db"' % jid, '"$OUT/%s/migrations"' % jid
        for st in steps:
            if st[0] == "@baseline":
                cmd = "baseline %s --version %s" % (db, q(st[1]))
            elif st[0] == "@audit":
                cmd = "audit %s %s" % (db, mig)
            elif st[0] == "@history":
                cmd = "history %s" % db
            elif st[0] == "@upgrade":
                lines.append('(cd /tmp && timeout 30 python3 %s %s %s > "$OUT/%s.txt" 2>/dev/null; echo $? >> "$OUT/%s.rcs")'
                             % (q(UPGRADE), db, mig, jid, jid))
                continue
            else:
                cmd = "%s %s %s %s" % (st[0], db, mig, " ".join(q(a) for a in st[1:]))
            sink = '"$OUT/%s.txt"' % jid if st[0] in ("@audit", "@history") else "/dev/null"
            if steps == [["@audit"]]:
                reads.append((len(lines), ["python3", TOOL, "audit", os.path.join(inp, jid, "app.db"),
                                           os.path.join(inp, jid, "migrations")], jid))
            lines.append('(cd /tmp && timeout 20 python3 %s %s > %s 2>/dev/null; echo $? >> "$OUT/%s.rcs")'
                         % (q(TOOL), cmd, sink, jid))
    # An audit on its own only reads its case, so in a scaled child its database may reach the
    # program through the input channel (docs/scale.md), a copy the program restores for itself;
    # every other call works on the job's writable copy and is never presented.
    ro = (inp,)
    if reads:
        presented, ro = present_steps([argv for _, argv, _ in reads], ro, commands=("audit",))
        for (at, argv, jid), shown in zip(reads, presented):
            if shown != argv:
                lines[at] = '(cd /tmp && timeout 20 %s > "$OUT/%s.txt" 2>/dev/null; echo $? >> "$OUT/%s.rcs")' % (
                    " ".join(q(x) for x in shown), jid, jid)
    driver = os.path.join(TMP, label + "-driver.sh")
    with open(driver, "w") as f:
        f.write("\n".join(lines) + "\n")
    run(["bash", driver, inp, out], timeout=300, ro=ro)
    res = {}
    for jid, _ in jobs:
        try:
            rcs = [int(x) for x in open(os.path.join(out, jid + ".rcs")).read().split()]
        except Exception:
            rcs = None
        try:
            text = open(os.path.join(out, jid + ".txt"), encoding="utf-8", errors="replace").read()
        except Exception:
            text = None
        res[jid] = (rcs, text, os.path.join(out, jid, "app.db"))
    return res


def db_state(path):
    """(trace tags in order, user tables, history rows in rank order) or None."""
    try:
        conn = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        trace = [r[0] for r in conn.execute("SELECT tag FROM trace ORDER BY id")]
        tables = set(r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_history'"))
        hist = []
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_history'").fetchone():
            hist = [tuple(r) for r in conn.execute(
                "SELECT version, description, type, script, checksum, success FROM schema_history ORDER BY rank")]
        conn.close()
        return trace, tables, hist
    except Exception:
        return None


def read_audit(text):
    if text is None:
        return None
    rows = [r.strip() for r in text.strip().split("\n")]
    if not rows or rows[0].replace(" ", "") != "version,code":
        return None
    return set(tuple(c.strip() for c in r.split(",")) for r in rows[1:] if r)


def rows_score(want, got):
    if got is None:
        return 0.0
    n = max(len(want), len(got))
    return 1.0 if n == 0 else len(want & got) / n


def prepare(label, fn, count):
    """Builds every case of a family before any submitted program runs; answers stay in memory."""
    try:
        rng = rng_for(label)
        return [generate(fn, rng.fork("case%d" % i)) for i in range(count)]
    except Exception as e:  # reported by that check; the other checks still run
        return e


def state_check(label):
    """Each case: exit statuses of every step, the trace, the tables and the history; a case
    scores 1 when all four are exactly right, else 0."""
    def check():
        cases = CASES[label]
        if isinstance(cases, Exception):
            raise cases
        jobs = []
        for i, c in enumerate(cases):
            write_case(os.path.join(TMP, label, "c%d" % i), c)
            jobs.append(("c%d" % i, c.steps))
        res = run_batch(label, jobs)
        scores, notes = [], []
        for i, c in enumerate(cases):
            rcs, _, db = res["c%d" % i]
            st = db_state(db)
            parts = [rcs == c.rcs]
            if st is None:
                parts += [False, False, False]
            else:
                trace, tables, hist = st
                parts += [trace == c.trace, tables == c.tables | {"trace"}, hist == c.final_history]
            s = 1.0 if all(parts) else 0.0
            scores.append(s)
            notes.append("c%d %s" % (i, "".join("1" if p else "0" for p in parts)))
        return sum(scores) / len(scores), "; ".join(notes)
    return check


def audit_check():
    cases = CASES["audit"]
    if isinstance(cases, Exception):
        raise cases
    jobs = []
    for i, c in enumerate(cases):
        write_case(os.path.join(TMP, "audit", "c%d" % i), c)
        jobs.append(("c%d" % i, [["@audit"]]))
    res = run_batch("audit", jobs)
    scores, notes = [], []
    for i, c in enumerate(cases):
        rcs, text, _ = res["c%d" % i]
        s = rows_score(c.audit, read_audit(text)) if rcs == [0] else 0.0
        scores.append(s)
        notes.append("c%d %.2f" % (i, s))
    return sum(scores) / len(scores), "; ".join(notes)


def public():
    """Example 1: migrate, then the history command's output; example 2: audit (answers kept here)."""
    d = os.path.join(TMP, "public")
    for ex in ("example1", "example2"):
        shutil.copytree(os.path.join(PUB, ex, "case"), os.path.join(d, ex))
    for root, _, names in os.walk(PUB):
        for n in sorted(names):
            g.digest(n)
    res = run_batch("public", [("example1", [["migrate"], ["@history"]]), ("example2", [["@audit"]])])
    ok, notes = [], []
    rcs, text, _ = res["example1"]
    want = open(os.path.join(PUB, "example1", "expected", "history.csv")).read().strip().split("\n")
    got = [ln.rstrip() for ln in (text or "").strip().split("\n")]
    ok.append(rcs == [0, 0] and got == want)
    if not ok[-1]:
        notes.append("example1")
    rcs, text, _ = res["example2"]
    want = read_audit(open(os.path.join(PUB, "example2", "expected", "audit.csv")).read())
    ok.append(rcs == [0] and read_audit(text) == want)
    if not ok[-1]:
        notes.append("example2")
    return float(all(ok)), "%d of 2 examples right%s" % (sum(ok), ("; wrong: " + ", ".join(notes)) if notes else "")


def project():
    """The legacy database upgraded by /app/upgrade_legacy.py on the grader's copy (half), and the
    audits of the three shipped deployments (half)."""
    d = os.path.join(TMP, "project")
    write_files(os.path.join(d, "legacy", "migrations"), proj.files())
    proj.build_legacy(os.path.join(d, "legacy", "app.db"))
    jobs = [("legacy", [["@upgrade"]])]
    deps = {}
    for name in proj.DEPLOYMENTS:
        c = proj.deployment(name)
        deps[name] = c
        write_case(os.path.join(d, name), c)
        jobs.append((name, [["@audit"]]))
    res = run_batch("project", jobs)
    rcs, report, db = res["legacy"]
    legacy, note = proj.grade_legacy(db, rcs[0] if rcs else None, report)
    audits = []
    for name, c in deps.items():
        rcs, text, _ = res[name]
        audits.append(rows_score(c.audit, read_audit(text)) if rcs == [0] else 0.0)
    return 0.5 * legacy + 0.5 * sum(audits) / len(audits), "%s; audits %s" % (note, " ".join("%.2f" % a for a in audits))


CASES = {
    "order": prepare("order", gen.case_order, 6),
    "incremental": prepare("incremental", gen.case_incremental, 8),
    "failures": prepare("failures", gen.case_failure, 6),
    "down": prepare("down", gen.case_down_baseline, 6),
    "audit": prepare("audit", gen.case_audit, 6),
}
g.check("public_examples", public)
g.check("project_upgrade", project)
g.check("hidden_order", state_check("order"))
g.check("hidden_incremental", state_check("incremental"))
g.check("hidden_failures", state_check("failures"))
g.check("hidden_down_baseline", state_check("down"))
g.check("hidden_audit", audit_check)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
