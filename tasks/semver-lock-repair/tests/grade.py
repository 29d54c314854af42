"""Grades the repaired /app/pkgsolve.py: lockfiles and audits for the public examples, the shipped
project (answers kept here) and seeded hidden registries whose answers come from gen.py (every
solution enumerated and ranked; audit findings planted)."""
import csv, json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "pkgsolve.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")


def write_tree(tag, files):
    d = os.path.join(TMP, tag)
    for name, data in sorted(files.items()):
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        g.digest(tag.encode() + name.encode() + data)
    return d


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except Exception:
        return None


def as_lock(doc):
    """A lockfile as {name: (version, {dep: version})}, None when unsatisfiable, "?" when unreadable."""
    if not isinstance(doc, dict):
        return "?"
    if doc.get("error") == "unsatisfiable":
        return None if not doc.get("packages") else "?"
    pk = doc.get("packages")
    if not isinstance(pk, dict):
        return "?"
    out = {}
    for n, e in pk.items():
        if isinstance(e, dict):
            deps = e.get("dependencies") if isinstance(e.get("dependencies"), dict) else {}
            out[n] = (str(e.get("version")), {str(k): str(v) for k, v in deps.items()})
        else:
            out[n] = ("?", {})
    return out


def lock_score(want, got):
    """Share of expected packages locked exactly right (version and dependency versions); extra
    entries count against it. An unsatisfiable manifest scores 1 only for the error document."""
    if got == "?":
        return 0.0
    if want is None or got is None:
        return 1.0 if want is None and got is None else 0.0
    ok = sum(1 for n, w in want.items() if got.get(n) == w)
    n = max(len(want), len(got))
    return 1.0 if n == 0 else ok / n


def read_rows(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except Exception:
        return None
    if not rows or [c.strip() for c in rows[0]] != ["package", "version", "reason"]:
        return None
    return {tuple(c.strip() for c in r) for r in rows[1:] if r}


def rows_score(want, got):
    if got is None:
        return 0.0
    n = max(len(want), len(got))
    return 1.0 if n == 0 else len(want & got) / n


def run_project(command, d):
    """Runs one command over a whole project folder; returns its output folder, exit code, error tail."""
    out = os.path.join(TMP, "out-%s-%s" % (command, os.path.basename(d)))
    os.makedirs(out)
    code, _, err = run(["python3", TOOL, command, d, out], timeout=120)
    return out, code, err.strip()[-100:]


def prepare(label, fn, *args):
    """Builds a seeded case set before any submitted program runs; answers stay in memory."""
    try:
        rng = random.Random("%d#%s" % (SEED, label))
        files, cases = generate(fn, rng, *args)
        return write_tree(label, files), cases
    except Exception as e:  # reported by that check; the other checks still run
        return e


def hidden_locks(label):
    def fn():
        built = CASES[label]
        if isinstance(built, Exception):
            raise built
        d, cases = built
        out, code, err = run_project("lock", d)
        scores, notes = [], []
        for tag, want in cases:
            s = lock_score(want, as_lock(load_json(os.path.join(out, tag + ".lock.json"))))
            scores.append(s)
            notes.append("%s %.2f" % (tag, s))
        msg = "; ".join(notes) + ((" (exit %s %s)" % (code, err)) if code else "")
        return sum(scores) / len(scores), msg
    return fn


def hidden_audit():
    built = CASES["audit"]
    if isinstance(built, Exception):
        raise built
    d, cases = built
    out, code, err = run_project("audit", d)
    scores, notes = [], []
    for tag, want in cases:
        s = rows_score(want, read_rows(os.path.join(out, tag + ".csv")))
        scores.append(s)
        notes.append("%s %.2f" % (tag, s))
    msg = "; ".join(notes) + ((" (exit %s %s)" % (code, err)) if code else "")
    return sum(scores) / len(scores), msg


def public():
    ok, notes = [], []
    for ex in ("example1", "example2"):
        d = os.path.join(TMP, "public", ex)
        shutil.copytree(os.path.join(PUB, ex), d)
        shutil.rmtree(os.path.join(d, "expected"))
        lock_out, code1, err1 = run_project("lock", d)
        audit_out, code2, err2 = run_project("audit", d)
        for fn in sorted(os.listdir(os.path.join(PUB, ex, "manifests"))):
            tag = fn[:-len(".json")]
            want = as_lock(load_json(os.path.join(PUB, ex, "expected", "lock", tag + ".lock.json")))
            good = code1 == 0 and lock_score(want, as_lock(load_json(os.path.join(lock_out, tag + ".lock.json")))) == 1.0
            ok.append(good)
            if not good:
                notes.append("%s lock %s" % (ex, tag))
        for fn in sorted(os.listdir(os.path.join(PUB, ex, "locks"))):
            tag = fn[:-len(".lock.json")]
            want = read_rows(os.path.join(PUB, ex, "expected", "audit", tag + ".csv"))
            good = code2 == 0 and rows_score(want, read_rows(os.path.join(audit_out, tag + ".csv"))) == 1.0
            ok.append(good)
            if not good:
                notes.append("%s audit %s" % (ex, tag))
        for c, e in ((code1, err1), (code2, err2)):
            if c:
                notes.append("%s exit %s %s" % (ex, c, e))
    return float(all(ok)), "%d of %d outputs right%s" % (sum(ok), len(ok), ("; " + "; ".join(notes)) if notes else "")


def project():
    """The shipped /app/project, rebuilt here from its seed with its planned answers."""
    seed, plan = gen.PROJECTS["project"]
    files, want_locks, want_audits = gen.build_project(random.Random(seed), plan)
    d = os.path.join(TMP, "project")
    for name, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    lock_out, code1, err1 = run_project("lock", d)
    audit_out, code2, err2 = run_project("audit", d)
    scores, notes = [], []
    for tag, want in sorted(want_locks.items()):
        s = lock_score(want, as_lock(load_json(os.path.join(lock_out, tag + ".lock.json"))))
        scores.append(s)
        notes.append("lock %s %.2f" % (tag, s))
    for tag, want in sorted(want_audits.items()):
        s = rows_score(want, read_rows(os.path.join(audit_out, tag + ".csv")))
        scores.append(s)
        notes.append("audit %s %.2f" % (tag, s))
    for c, e in ((code1, err1), (code2, err2)):
        if c:
            notes.append("exit %s %s" % (c, e))
    return sum(scores) / len(scores), "; ".join(notes)


CASES = {
    "ranges": prepare("ranges", gen.build_lock_cases, "ranges", 4),
    "prerelease": prepare("prerelease", gen.build_lock_cases, "prerelease", 4),
    "registry": prepare("registry", gen.build_lock_cases, "registry", 4),
    "backtrack": prepare("backtrack", gen.build_lock_cases, "backtrack", 8),
    "audit": prepare("audit", gen.build_audit_cases, 8),
}
g.check("public_examples", public)
g.check("project_locks_audit", project)
g.check("hidden_ranges", hidden_locks("ranges"))
g.check("hidden_prerelease", hidden_locks("prerelease"))
g.check("hidden_registry", hidden_locks("registry"))
g.check("hidden_backtracking", hidden_locks("backtrack"))
g.check("hidden_audit", hidden_audit)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
