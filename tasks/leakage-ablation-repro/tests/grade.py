"""Grades /app/ablate.py and /app/audit.py on the shipped cases and on seeded hidden studies.

Expected tables come from ref.py (the grader's own column-wise reading of PROTOCOL.md) and
expected audit codes from the planted faults of each generated log (gen.py); nothing here runs or
copies the solution's code.
"""
import csv, hashlib, json, os, random, shutil, sys, tempfile
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import gen, ref  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
ABLATE = os.path.join(WORK, "ablate.py")
AUDIT = os.path.join(WORK, "audit.py")
# The grader's own copies of the public cases and of the shipped study: /app is the agent's to
# edit, so neither inputs nor expected answers are read from there.
PUB = os.path.join(HERE, "examples")
STUDY = os.path.join(HERE, "study")
CELL_TOL = 6e-5     # a 4-decimal value is within 5e-5 of the exact one


def stage(src, tag):
    dst = os.path.join(TMP, tag)
    shutil.copytree(src, dst)
    return dst


def write_case(tag, text, spec, logs=()):
    d = os.path.join(TMP, tag)
    os.makedirs(os.path.join(d, "runs"))
    files = [("data.csv", text.encode()), ("configs.json", (json.dumps(spec, indent=1) + "\n").encode())]
    files += [("runs/" + name, data) for name, data in logs]
    for name, data in files:
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    return d


def read_rows(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except Exception:
        return []


def num(s):
    try:
        return float((s or "").strip())
    except ValueError:
        return None


def table_cells(case_dir, want):
    """(share of right cells, exit code, stderr tail) for ablate.py on one study."""
    out = case_dir + "-table"
    code, _, err = run(["python3", ABLATE, case_dir, out], timeout=180)
    got = {(r.get("config") or "").strip(): r for r in read_rows(os.path.join(out, "ablation.csv"))}
    ok = 0
    for name, acc, f1 in want:
        r = got.get(name) or {}
        for key, w in (("accuracy", acc), ("macro_f1", f1)):
            v = num(r.get(key))
            ok += v is not None and abs(v - w) <= CELL_TOL
    return ok / (2 * len(want)), code, err.strip()[-200:]


def parse_reasons(s):
    return sorted(x.strip() for x in (s or "").split(";") if x.strip())


def audit_rows(case_dir, want):
    """(share of logs with exactly the right codes and verdict, exit code, stderr tail)."""
    out = case_dir + "-audit.csv"
    code, _, err = run(["python3", AUDIT, case_dir, os.path.join(case_dir, "runs"), out], timeout=300)
    got = {(r.get("run_id") or "").strip(): r for r in read_rows(out)}
    ok = 0
    for rid, reasons in want.items():
        r = got.get(rid)
        if r is None:
            continue
        verdict = (r.get("verdict") or "").strip().lower()
        ok += parse_reasons(r.get("reasons")) == reasons and verdict == ("fail" if reasons else "pass")
    return ok / len(want), code, err.strip()[-200:]


def expected_audit(case_dir):
    """Codes of shipped logs, derived from their contents (the rules gen.py plants by)."""
    with open(os.path.join(case_dir, "data.csv"), "rb") as f:
        raw = f.read()
    text = raw.decode()
    with open(os.path.join(case_dir, "configs.json")) as f:
        spec = json.load(f)
    st = ref.study_of(text)  # the study given_study just scored: its predictions are reused
    k = int(spec["folds"])
    proto_of = ref.folds_of(st.subjects, k)
    proto = [[st.ids[i] for i in range(st.n) if proto_of[i] == fo] for fo in range(k)]
    truth = {}
    want = {}
    sha = hashlib.sha256(raw).hexdigest()
    for name in sorted(os.listdir(os.path.join(case_dir, "runs"))):
        with open(os.path.join(case_dir, "runs", name)) as f:
            log = json.load(f)
        cfg = log["config"]
        if cfg["name"] not in truth:
            pred, _ = ref.predictions(st, cfg, k)
            truth[cfg["name"]] = ref.scores(st.y, pred)
        want[log["run_id"]] = gen.reasons_of(st, sha, spec, truth, proto, log)
    return want


def public():
    res = []
    for ex in ("example1", "example2"):
        d = stage(os.path.join(PUB, ex, "input"), "pub-" + ex)
        want_t = [(r["config"], float(r["accuracy"]), float(r["macro_f1"]))
                  for r in read_rows(os.path.join(PUB, ex, "expected", "ablation.csv"))]
        want_a = {r["run_id"]: parse_reasons(r["reasons"])
                  for r in read_rows(os.path.join(PUB, ex, "expected", "audit.csv"))}
        t, c1, _ = table_cells(d, want_t)
        a, c2, _ = audit_rows(d, want_a)
        res.append(t == 1.0 and a == 1.0)
    return float(all(res)), "examples right: %s" % res


def given_study():
    d = stage(STUDY, "study")
    with open(os.path.join(d, "data.csv")) as f:
        text = f.read()
    with open(os.path.join(d, "configs.json")) as f:
        spec = json.load(f)
    want_t, _ = gen.expected_table(text, spec)
    want_a = expected_audit(d)
    t, c1, e1 = table_cells(d, want_t)
    a, c2, e2 = audit_rows(d, want_a)
    return 0.5 * t + 0.5 * a, "table %.3f (exit %s%s), audit %.3f (exit %s%s)" % (
        t, c1, (" " + e1) if c1 else "", a, c2, (" " + e2) if c2 else "")


def hidden_tables(kind, n):
    def fn():
        rng = random.Random("%d/%s" % (SEED, kind))
        cases = []
        for i in range(n):
            text, spec, _, want = generate(gen.study, rng, kind)
            cases.append((write_case("%s%d" % (kind, i), text, spec), want))
        scores, msgs = [], []
        for i, (d, want) in enumerate(cases):
            s, code, err = table_cells(d, want)
            scores.append(s)
            msgs.append("study %d: %.3f (exit %s)%s" % (i, s, code, (" " + err) if code else ""))
        return sum(scores) / n, "; ".join(msgs)
    return fn


def hidden_audit(n):
    def fn():
        rng = random.Random("%d/audit" % SEED)
        cases = []
        for i in range(n):
            text, spec, post, _ = generate(gen.study, rng, "audit")
            logs, want = generate(gen.run_logs, rng, text, spec, post)
            cases.append((write_case("audit%d" % i, text, spec, logs), want))
        scores, msgs = [], []
        for i, (d, want) in enumerate(cases):
            s, code, err = audit_rows(d, want)
            scores.append(s)
            msgs.append("study %d: %.3f of %d logs (exit %s)%s" % (i, s, len(want), code, (" " + err) if code else ""))
        return sum(scores) / n, "; ".join(msgs)
    return fn


g.check("public_examples", public)
g.check("given_study", given_study)
g.check("hidden_groups", hidden_tables("groups", 2))
g.check("hidden_preprocessing", hidden_tables("prep", 2))
g.check("hidden_selection", hidden_tables("select", 2))
g.check("hidden_audit", hidden_audit(2))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
