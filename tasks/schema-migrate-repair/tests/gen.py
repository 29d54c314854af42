"""Seeded migration cases planned by construction.

Every case is planned first as a list of versions (increasing tuples), the scripts' canonical
texts (their checksums are taken from that planted text before it is written out with CRLF line
ends or a byte-order mark), the history a previous tool left, and the commands to run; the
expected trace (each script inserts its own tag into `trace`), tables, history rows and exit
statuses follow from the plan. Nothing here reads a migrations folder or orders file names."""
import hashlib
import sqlite3

WORDS = ["orders", "users", "audit", "prices", "stock", "ledger", "events", "tags", "notes", "carts",
         "regions", "rates", "sessions", "tokens", "vendors", "items", "refunds", "quotas", "alerts", "teams"]
HISTORY_SQL = ("CREATE TABLE schema_history (rank INTEGER PRIMARY KEY, version TEXT, description TEXT NOT NULL, "
               "type TEXT NOT NULL, script TEXT NOT NULL, checksum TEXT, installed_on TEXT NOT NULL, success INTEGER NOT NULL)")
TRACE_SQL = "CREATE TABLE trace (id INTEGER PRIMARY KEY AUTOINCREMENT, tag TEXT NOT NULL)"
STAMP = "2025-06-01T09:00:00Z"


def vt(v):
    return ".".join(str(p) for p in v)


def ident(v):
    return "_".join(str(p) for p in v)


def digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def render_version(rng, v):
    sep = rng.pick([".", "_"])
    parts = [str(p) for p in v]
    if rng.next() < 0.25:
        parts[0] = "0" * rng.int(1, 2) + parts[0]
    return sep.join(parts)


def encode(rng, text, style=None):
    style = style or rng.pick(["lf", "lf", "crlf", "bom", "bom-crlf", "cr"])
    t = text
    if "crlf" in style:
        t = t.replace("\n", "\r\n")
    elif style == "cr":
        t = t.replace("\n", "\r")
    data = t.encode("utf-8")
    if style.startswith("bom"):
        data = b"\xef\xbb\xbf" + data
    return data


def v_text(v, desc, fail=False, gen=0):
    i = ident(v)
    lines = ["-- %s (version %s)" % (desc, vt(v)),
             "CREATE TABLE t_%s (id INTEGER PRIMARY KEY, note TEXT);" % i,
             "INSERT INTO t_%s (note) VALUES ('%s; rev %d');" % (i, desc, gen),
             "INSERT INTO trace (tag) VALUES ('V%s');" % vt(v)]
    if fail:
        lines.append("INSERT INTO t_missing_%s VALUES (1);" % i)
    return "\n".join(lines) + "\n"


def u_text(v, fail=False):
    i = ident(v)
    lines = ["-- undo %s" % vt(v), "DROP TABLE t_%s;" % i, "INSERT INTO trace (tag) VALUES ('U%s');" % vt(v)]
    if fail:
        lines.append("DROP TABLE t_never_%s;" % i)
    return "\n".join(lines) + "\n"


def r_text(name, gen):
    return ("DROP VIEW IF EXISTS v_%s;\nCREATE VIEW v_%s AS SELECT '%s:%d' AS g;\n"
            "INSERT INTO trace (tag) VALUES ('R:%s:%d');\n" % (name, name, name, gen, name, gen))


class Case:
    """files: name -> bytes; pre: SQL run on a fresh database before the tool (with its history
    rows); steps: argument lists after the database and folder; expected outcome."""

    def __init__(self):
        self.files = {}
        self.pre_sql = []          # scripts executed to make the previous state
        self.pre_trace = []        # tags those scripts left in trace
        self.pre_tables = set()
        self.history = []          # (version, description, type, script, checksum, success)
        self.steps = []            # [["migrate"], ["migrate", "--target", "3"], ["down", "--target", "2"], ...]
        self.rcs = []
        self.trace = []
        self.tables = set()
        self.final_history = []
        self.audit = None

    def add_pre(self, text, tag=None, table=None):
        self.pre_sql.append(text)
        if tag:
            self.pre_trace.append(tag)
        if table:
            self.pre_tables.add(table)

    def build_db(self, path):
        conn = sqlite3.connect(path)
        conn.execute(TRACE_SQL)
        for text in self.pre_sql:
            conn.executescript(text)
        if self.history:
            conn.execute(HISTORY_SQL)
            for rank, row in enumerate(self.history, 1):
                version, description, type_, script, checksum, success = row
                conn.execute("INSERT INTO schema_history VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             (rank, version, description, type_, script, checksum, STAMP, success))
        conn.commit()
        conn.close()


def versions(rng, n, minors=True):
    """n increasing version tuples with a two-digit major after a one-digit one of the same
    leading digit (V2 before V10) and, when minors, x.9 before x.10."""
    majors = set([rng.int(1, 3)])
    first = min(majors)
    majors.add(first * 10 + rng.int(0, 2))
    while len(majors) < n:
        majors.add(rng.int(1, 40))
    majors = sorted(majors)[:n]
    out = []
    for m in majors:
        out.append((m,))
        if minors and len(out) < n + 3 and rng.next() < 0.3:
            out.append((m, rng.int(1, 9)))
            if rng.next() < 0.5:
                out.append((m, 10 + rng.int(0, 5)))
    return out


class Planner:
    """Keeps the folder, the history and the expected state of one case in step."""

    def __init__(self, rng):
        self.rng = rng
        self.case = Case()
        self.names = {}
        self.descs = {}
        self.trace = []
        self.tables = set()
        self.history = []
        self.words = rng.shuffle(WORDS)

    def desc(self, i):
        return self.words[i % len(self.words)] + ("" if i < len(self.words) else str(i))

    def add_v(self, v, i, fail=False, style=None, gen=0):
        desc = self.desc(i)
        name = "V%s__%s.sql" % (render_version(self.rng, v), desc.replace(" ", "_"))
        text = v_text(v, desc, fail, gen)
        self.case.files[name] = encode(self.rng, text, style)
        self.names[v] = (name, desc, text)
        return name, desc, text

    def add_u(self, v, fail=False):
        desc = "undo_" + self.names[v][1]
        name = "U%s__%s.sql" % (render_version(self.rng, v), desc)
        self.case.files[name] = encode(self.rng, u_text(v, fail))

    def add_r(self, rname, gen):
        text = r_text(rname, gen)
        self.case.files["R__%s.sql" % rname] = encode(self.rng, text)
        return text

    def pre_apply_v(self, v, record=True):
        name, desc, text = self.names[v]
        self.case.add_pre(text, "V" + vt(v), "t_" + ident(v))
        if record:
            self.case.history.append((vt(v), desc, "SQL", name, digest(text), 1))

    def pre_apply_r(self, rname, gen, file_gen=None):
        text = r_text(rname, gen)
        self.case.add_pre(text, "R:%s:%d" % (rname, gen))
        self.case.history.append((None, rname.replace("_", " "), "REPEATABLE", "R__%s.sql" % rname, digest(text), 1))

    def decoys(self):
        rng = self.rng
        self.case.files["README.md"] = b"Migrations for this service. Apply with migrate.py.\n"
        if rng.next() < 0.6:
            self.case.files["V%d__draft.sql.bak" % rng.int(50, 60)] = b"CREATE TABLE never_bak (x);\n"
        if rng.next() < 0.6:
            self.case.files["v%d__lowercase.sql" % rng.int(50, 60)] = b"CREATE TABLE never_lower (x);\n"
        if rng.next() < 0.5:
            self.case.files["V%d_single_underscore.sql" % rng.int(50, 60)] = b"CREATE TABLE never_single (x);\n"

    def start(self):
        c = self.case
        self.trace = list(c.pre_trace)
        self.tables = set(c.pre_tables)
        self.history = list(c.history)

    def expect_v(self, v):
        name, desc, text = self.names[v]
        self.trace.append("V" + vt(v))
        self.tables.add("t_" + ident(v))
        self.history.append((vt(v), desc, "SQL", name, digest(text), 1))

    def expect_r(self, rname, gen):
        self.trace.append("R:%s:%d" % (rname, gen))
        self.history.append((None, rname.replace("_", " "), "REPEATABLE", "R__%s.sql" % rname, digest(r_text(rname, gen)), 1))

    def expect_u(self, v):
        self.trace.append("U" + vt(v))
        self.tables.discard("t_" + ident(v))
        self.history = [h for h in self.history if not (h[2] == "SQL" and h[0] == vt(v))]

    def step(self, args, rc):
        self.case.steps.append(list(args))
        self.case.rcs.append(rc)

    def done(self):
        c = self.case
        c.trace = list(self.trace)
        c.tables = set(self.tables)
        c.final_history = list(self.history)
        return c


def by_desc(names):
    return sorted(names, key=lambda r: r.replace("_", " "))


def repeatables(p, n, rng):
    names = sorted(set(rng.pick(["views", "report_views", "Stats", "audit_triggers", "zz_last", "a_first", "totals"])
                       for _ in range(n)))
    return names


# ---------------------------------------------------------------- families


def case_order(rng):
    """Fresh database: numeric order, normalised versions, ignored files, repeatables last;
    sometimes a first migrate --target to a planned version, then a plain migrate."""
    p = Planner(rng)
    vs = versions(rng, rng.int(5, 8))
    for i, v in enumerate(vs):
        p.add_v(v, i)
    rs = repeatables(p, rng.int(1, 3), rng)
    for r in rs:
        p.add_r(r, 1)
    p.decoys()
    p.start()
    if rng.next() < 0.5:
        t = vs[rng.int(1, len(vs) - 2)]
        for v in vs:
            if v <= t:
                p.expect_v(v)
        for r in by_desc(rs):
            p.expect_r(r, 1)
        p.step(["migrate", "--target", render_version(rng, t)], 0)
        for v in vs:
            if v > t:
                p.expect_v(v)
        p.step(["migrate"], 0)
    else:
        for v in vs:
            p.expect_v(v)
        for r in by_desc(rs):
            p.expect_r(r, 1)
        p.step(["migrate"], 0)
        # undo down to a planned version (kept), then migrate again
        t = vs[rng.int(1, len(vs) - 2)]
        for v in vs:
            if v > t:
                p.add_u(v)
        for v in sorted(vs, reverse=True):
            if v > t:
                p.expect_u(v)
        p.step(["down", "--target", render_version(rng, t)], 0)
        for v in vs:
            if v > t:
                p.expect_v(v)
        p.step(["migrate"], 0)
    return p.done()


def case_incremental(rng, kind=None):
    """A database migrated earlier: applied files re-encoded (no drift), repeatables new, changed,
    or unchanged (history with several rows each: the latest one counts), a baseline, out-of-order
    files with and without --out-of-order."""
    p = Planner(rng)
    kind = kind or rng.pick(["plain", "baseline", "baseline", "out_of_order", "target"])
    vs = versions(rng, rng.int(6, 8))
    k = rng.int(2, len(vs) - 2)
    applied, pending = vs[:k], vs[k:]
    for i, v in enumerate(vs):
        p.add_v(v, i)
    base = None
    if kind == "baseline":
        base = applied[-1]
        for v in applied:
            p.pre_apply_v(v, record=False)
        p.case.history.append((vt(base), "<< Baseline >>", "BASELINE", "<< Baseline >>", None, 1))
    else:
        for v in applied:
            p.pre_apply_v(v)
    ooo = None
    if kind == "out_of_order":
        ooo = applied[rng.int(0, len(applied) - 2)]
        # history and effects as if that one had never been applied
        name, desc, text = p.names[ooo]
        idx = [h[0] for h in p.case.history].index(vt(ooo))
        del p.case.history[idx]
        j = p.case.pre_trace.index("V" + vt(ooo))
        del p.case.pre_trace[j]
        del p.case.pre_sql[j]
        p.case.pre_tables.discard("t_" + ident(ooo))
    # repeatables: unchanged, changed (latest row old), changed back (first row old, latest current), new
    rs = ["a_views", "m_report", "z_totals", "Stats"]
    rs = [r for r in rs if rng.next() < 0.8] or ["m_report"]
    plan_r = {}
    for r in rs:
        mode = rng.pick(["same", "changed", "back", "new"])
        if mode == "same":
            p.pre_apply_r(r, 1)
            plan_r[r] = (1, False)
        elif mode == "changed":
            p.pre_apply_r(r, 1)
            plan_r[r] = (2, True)
        elif mode == "back":
            p.pre_apply_r(r, 2)
            p.pre_apply_r(r, 1)
            plan_r[r] = (1, False) if rng.next() < 0.5 else (3, True)
        else:
            plan_r[r] = (1, True)
        p.add_r(r, plan_r[r][0])
    # applied files written again with other line ends (same normalised text)
    for v in applied:
        name, desc, text = p.names[v]
        p.case.files[name] = encode(rng, text, rng.pick(["crlf", "bom", "bom-crlf", "cr"]))
    p.decoys()
    p.start()
    todo = sorted(pending + ([ooo] if ooo else []))
    if kind == "out_of_order":
        p.step(["migrate"], 2)
        for v in todo:
            p.expect_v(v)
        for r in by_desc(rs):
            if plan_r[r][1]:
                p.expect_r(r, plan_r[r][0])
        p.step(["migrate", "--out-of-order"], 0)
        return p.done()
    if kind == "target":
        t = pending[rng.int(0, len(pending) - 2)]
        todo = [v for v in todo if v <= t]
        for v in todo:
            p.expect_v(v)
        for r in by_desc(rs):
            if plan_r[r][1]:
                p.expect_r(r, plan_r[r][0])
        p.step(["migrate", "--target", render_version(rng, t)], 0)
        p.step(["migrate", "--target", render_version(rng, t)], 0)
        return p.done()
    for v in todo:
        p.expect_v(v)
    for r in by_desc(rs):
        if plan_r[r][1]:
            p.expect_r(r, plan_r[r][0])
    p.step(["migrate"], 0)
    p.step(["migrate"], 0)
    return p.done()


def case_failure(rng):
    """One pending migration fails part-way: everything before it stays, it leaves nothing (no
    history row, no table, no trace), nothing after it runs, repeatables do not run; a second
    migrate fails the same way; an undo script failing part-way the same."""
    p = Planner(rng)
    vs = versions(rng, rng.int(5, 7))
    k = rng.int(0, 2)
    applied = vs[:k]
    pending = vs[k:]
    f = rng.int(1, len(pending) - 1)
    failing = pending[f]
    for i, v in enumerate(vs):
        p.add_v(v, i, fail=(v == failing))
    for v in applied:
        p.pre_apply_v(v)
    rs = ["views", "x_report"][: rng.int(1, 2)]
    for r in rs:
        p.add_r(r, 1)
    p.decoys()
    p.start()
    for v in pending[:f]:
        p.expect_v(v)
    p.step(["migrate"], 1)
    p.step(["migrate"], 1)
    if rng.next() < 0.5:
        # then undo part of it, the last undo failing
        done = applied + pending[:f]
        if len(done) >= 2:
            bad = done[0]
            for v in done:
                p.add_u(v, fail=(v == bad))
            for v in sorted(done, reverse=True):
                if v == bad:
                    break
                p.expect_u(v)
            p.step(["down", "--target", "0"], 1)
    return p.done()


def case_down_baseline(rng):
    """down --target (descending, the target kept, a missing undo script refuses everything) and
    baseline then migrate (the baseline version itself is not run)."""
    p = Planner(rng)
    vs = versions(rng, rng.int(5, 7))
    kind = rng.pick(["down", "down", "down_missing", "baseline"])
    for i, v in enumerate(vs):
        p.add_v(v, i)
    if kind == "baseline":
        b = vs[rng.int(1, len(vs) - 3)]
        for v in vs:
            if v <= b:
                p.pre_apply_v(v, record=False)
        rs = ["views"]
        p.add_r("views", 1)
        p.decoys()
        p.start()
        p.history.append((vt(b), "<< Baseline >>", "BASELINE", "<< Baseline >>", None, 1))
        p.case.steps.append(["@baseline", render_version(rng, b)])
        p.case.rcs.append(0)
        t = vs[-2]
        for v in vs:
            if b < v <= t:
                p.expect_v(v)
        p.expect_r("views", 1)
        p.step(["migrate", "--target", render_version(rng, t)], 0)
        # undo to the baseline: allowed; below it: refused
        for v in vs:
            if b < v <= t:
                p.add_u(v)
        for v in sorted(vs, reverse=True):
            if b < v <= t:
                p.expect_u(v)
        p.step(["down", "--target", render_version(rng, b)], 0)
        del rs
        return p.done()
    k = len(vs) - rng.int(0, 1)
    applied = vs[:k]
    for v in applied:
        p.pre_apply_v(v)
        p.add_u(v)
    p.pre_apply_r("views", 1)
    p.add_r("views", 1)
    p.decoys()
    p.start()
    t = applied[rng.int(0, len(applied) - 3)]
    if kind == "down_missing":
        gone = [v for v in applied if v > t][rng.int(0, 1)]
        name = [n for n in p.case.files if n.startswith("U") and p.case.files[n].find(("U" + vt(gone) + "'").encode()) >= 0]
        for n in name:
            del p.case.files[n]
        p.step(["down", "--target", render_version(rng, t)], 2)
        t2 = gone
        for v in sorted(applied, reverse=True):
            if v > t2:
                p.expect_u(v)
        p.step(["down", "--target", render_version(rng, t2)], 0)
        return p.done()
    for v in sorted(applied, reverse=True):
        if v > t:
            p.expect_u(v)
    p.step(["down", "--target", render_version(rng, t)], 0)
    for v in vs:
        if v > t:
            p.expect_v(v)
    p.step(["migrate"], 0)
    return p.done()


def case_audit(rng):
    """A recorded history with planted findings; the expected rows are the planted ones."""
    p = Planner(rng)
    vs = versions(rng, rng.int(8, 11))
    for i, v in enumerate(vs):
        p.add_v(v, i)
    want = set()
    base = None
    start = 0
    if rng.next() < 0.5:
        start = rng.int(1, 2)
        base = vs[start - 1]
        p.case.history.append((vt(base), "<< Baseline >>", "BASELINE", "<< Baseline >>", None, 1))
        # files at or below the baseline were never applied: not findings
    n = len(vs)
    top = rng.int(start + 4, n - 2)
    applied = vs[start:top]
    above = vs[top:]
    roles = {}
    mids = applied[:-1]
    pool = rng.shuffle(mids)
    n_drift = rng.int(1, 2)
    roles.update({v: "DRIFT" for v in pool[:n_drift]})
    rest = pool[n_drift:]
    if rest:
        roles[rest[0]] = "OUT_OF_ORDER"
    if len(rest) > 1:
        roles[rest[1]] = "MISSING"
    if len(rest) > 2 and rng.next() < 0.7:
        roles[rest[2]] = "OUT_OF_ORDER"
    for v in applied:
        role = roles.get(v)
        name, desc, text = p.names[v]
        if role == "OUT_OF_ORDER":
            want.add((vt(v), "OUT_OF_ORDER"))
            continue
        p.case.history.append((vt(v), desc, "SQL", name, digest(text), 1))
        if role == "DRIFT":
            want.add((vt(v), "DRIFT"))
            p.case.files[name] = encode(rng, v_text(v, desc, gen=rng.int(1, 9)))
        elif role == "MISSING":
            want.add((vt(v), "MISSING"))
            del p.case.files[name]
        else:
            p.case.files[name] = encode(rng, text)
    # the top applied version failed once before it succeeded? No: a failed row for the first file above
    if above and rng.next() < 0.6:
        v = above[0]
        name, desc, text = p.names[v]
        p.case.history.append((vt(v), desc, "SQL", name, digest(text), 0))
        want.add((vt(v), "FAILED"))
    # rows from a newer migration set: versions above every file
    if rng.next() < 0.6:
        top_file = vs[-1]
        for j in range(rng.int(1, 2)):
            v = (top_file[0] + 1 + j * rng.int(1, 3),)
            p.case.history.append((vt(v), "later_%d" % j, "SQL", "V%s__later_%d.sql" % (vt(v), j), digest("later %d" % j), 1))
            want.add((vt(v), "UNKNOWN"))
    # a repeatable whose file changed since its run: not a finding
    p.case.history.append((None, "views", "REPEATABLE", "R__views.sql", digest(r_text("views", 1)), 1))
    if any(c == "UNKNOWN" for _, c in want):
        # every file above the history's highest version that is not applied is now out of order
        failed = set(v for v, c in want if c == "FAILED")
        for v in above:
            if vt(v) not in failed:
                want.add((vt(v), "OUT_OF_ORDER"))
    p.add_r("views", 2)
    p.decoys()
    p.case.audit = want
    p.start()
    return p.done()
