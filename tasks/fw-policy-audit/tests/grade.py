"""Grades /app/fwctl.py: reachability queries and nightly audits over seeded configuration
series whose answers come from the generator's model (gen.py), never from the rendered files."""
import csv, json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "fwctl.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
FIELDS = ("violations", "shadowed", "redundant")


def lay_out(tag, files):
    d = os.path.join(TMP, tag)
    for rel, data in sorted(files.items()):
        path = os.path.join(d, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        g.digest(tag.encode() + rel.encode() + data)
    return d


def read_answers(path):
    """{id: (verdict, rule, real_dst)} from a query output, or None."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            out = {}
            for r in csv.DictReader(f):
                out[(r.get("id") or "").strip()] = tuple((r.get(c) or "").strip().lower()
                                                         for c in ("verdict", "rule", "real_dst"))
            return out
    except Exception:
        return None


def score_queries(want, got):
    if got is None:
        return 0.0
    ok = sum(1 for q in want if got.get(q[0]) == (q[5], q[6], q[7]))
    return ok / max(len(want), len(got))


def as_seqs(xs):
    try:
        return sorted(str(x).strip() for x in xs)
    except TypeError:
        return None


def snapshot_score(want, got):
    """Four equal parts, each all-or-nothing: violations, shadowed, redundant, changes."""
    if not isinstance(got, dict):
        return 0.0, "missing"
    name, viol, shadowed, redundant, added, removed, modified = want
    parts = [
        as_seqs(got.get("violations") or []) == sorted(viol),
        as_seqs(got.get("shadowed") or []) == sorted(str(s) for s in shadowed),
        as_seqs(got.get("redundant") or []) == sorted(str(s) for s in redundant),
        all(as_seqs(got.get(k) or []) == sorted(str(s) for s in v)
            for k, v in (("added", added), ("removed", removed), ("modified", modified))),
    ]
    return sum(parts) / 4.0, "".join("+" if p else "-" for p in parts)


def read_audit(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return {str(s.get("name")): s for s in data.get("snapshots", []) if isinstance(s, dict)}
    except Exception:
        return {}


def prepare(kind, n):
    """Every hidden case of a kind with its answers, built before any submitted program runs."""
    try:
        rng = random.Random("%d#%s" % (SEED, kind))
        build = gen.build_queries if kind == "queries" else (lambda r: gen.build_series(r, kind))
        out = []
        for i in range(n):
            files, want = generate(build, rng)
            out.append((lay_out("%s%d" % (kind, i), files), want))
        return out
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def hidden_queries():
    cases = CASES["queries"]
    if isinstance(cases, Exception):
        raise cases
    scores, notes = [], []
    for d, want in cases:
        out = d + "-answers.csv"
        code, _, err = run(["python3", TOOL, "query", d + "/config", d + "/queries.csv", out], timeout=30)
        s = score_queries(want, read_answers(out))
        scores.append(s)
        notes.append("%s: %.3f%s" % (os.path.basename(d), s, (" exit %s %s" % (code, err.strip()[-120:])) if code else ""))
    return sum(scores) / len(scores), "; ".join(notes)


def episodes(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        scores, notes = [], []
        for d, want in cases:
            out = d + "-audit.json"
            code, _, err = run(["python3", TOOL, "audit", d, out], timeout=60)
            got = read_audit(out)
            marks = []
            for w in want:
                s, mark = snapshot_score(w, got.get(w[0]))
                scores.append(s)
                marks.append("%s %s" % (w[0], mark))
            notes.append("%s: %s%s" % (os.path.basename(d), ", ".join(marks),
                                       (" exit %s %s" % (code, err.strip()[-120:])) if code else ""))
        return sum(scores) / len(scores), "%d snapshots (violations/shadowed/redundant/changes): %s" % (
            len(scores), "; ".join(notes))
    return fn


def public():
    ok, notes = [], []
    q = os.path.join(TMP, "public-query")
    shutil.copytree(os.path.join(PUB, "query1"), q)
    code, _, err = run(["python3", TOOL, "query", q + "/config", q + "/queries.csv", q + "-answers.csv"], timeout=30)
    want = read_answers(os.path.join(PUB, "query1", "expected.csv"))
    got = read_answers(q + "-answers.csv")
    ok.append(code == 0 and got == want)
    if not ok[-1]:
        notes.append("query1: exit %s %s" % (code, err.strip()[-120:]))
    a = os.path.join(TMP, "public-audit")
    shutil.copytree(os.path.join(PUB, "series1"), a)
    os.remove(os.path.join(a, "expected.json"))
    code, _, err = run(["python3", TOOL, "audit", a, a + "-audit.json"], timeout=60)
    with open(os.path.join(PUB, "series1", "expected.json"), encoding="utf-8") as f:
        exp = json.load(f)["snapshots"]
    got = read_audit(a + "-audit.json")
    good = code == 0 and len(got) == len(exp)
    for e in exp:
        w = (e["name"],) + tuple(e[k] for k in FIELDS + ("added", "removed", "modified"))
        good = good and snapshot_score(w, got.get(e["name"]))[0] == 1.0
    ok.append(good)
    if not good:
        notes.append("series1: exit %s %s" % (code, err.strip()[-120:]))
    return float(all(ok)), "%d of 2 examples right%s" % (sum(ok), ("; " + "; ".join(notes)) if notes else "")


CASES = {"queries": prepare("queries", 2), "plain": prepare("plain", 2), "groups": prepare("groups", 2),
         "changes": prepare("changes", 2)}
g.check("public_examples", public)
g.check("hidden_queries", hidden_queries)
g.check("hidden_audit_plain", episodes("plain"))
g.check("hidden_audit_groups", episodes("groups"))
g.check("hidden_audit_changes", episodes("changes"))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
