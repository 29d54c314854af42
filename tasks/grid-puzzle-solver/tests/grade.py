"""Grades the repaired /app/solver.py: `batch` on the public examples and on seeded hidden batches
(answers from the grader's own search, ref.py), `audit` on seeded contests with spoilt submissions
(expected rows from ref.verdict), and the shipped contest against tests/shipped."""
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import cases  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "solver.py")
HERE = os.path.dirname(os.path.abspath(__file__))


def norm_answer(data):
    lines = [ln.strip() for ln in data.splitlines() if ln.strip()]
    if lines:
        lines[0] = lines[0].upper()
    return lines


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except Exception:
        return None


def audit_rows(text):
    if text is None:
        return None
    rows = [tuple(x.strip() for x in ln.split(",")) for ln in text.splitlines() if ln.strip()]
    return rows[1:] if rows and rows[0][:1] == ("contestant",) else rows


def lay(folder, tree):
    for rel, data in sorted(tree.items()):
        p = os.path.join(folder, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)


def run_batch(tag, puzzles, want):
    """puzzles: {name.pz: bytes}; want: {name.txt: text}. Share of answers exact."""
    d = os.path.join(TMP, tag, "puzzles")
    lay(d, puzzles)
    out = os.path.join(TMP, tag, "answers")
    code, _, err = run(["python3", TOOL, "batch", d, out], timeout=60)
    bad = [k for k in sorted(want) if norm_answer(read(os.path.join(out, k)) or "") != norm_answer(want[k])]
    s = 1 - len(bad) / len(want)
    msg = "%s: %d/%d exact%s%s" % (tag, len(want) - len(bad), len(want),
                                   (" wrong " + " ".join(bad)) if bad else "",
                                   (" exit %s %s" % (code, err.strip()[-100:])) if code else "")
    return s, msg


def run_audit(tag, puzzles, subs, want_rows):
    base = os.path.join(TMP, tag)
    lay(os.path.join(base, "puzzles"), puzzles)
    lay(os.path.join(base, "submissions"), subs)
    out = os.path.join(base, "audit.csv")
    code, _, err = run(["python3", TOOL, "audit", os.path.join(base, "puzzles"),
                        os.path.join(base, "submissions"), out], timeout=60)
    got = audit_rows(read(out))
    ok = got == [tuple(r) for r in want_rows]
    return ok, "%s: %s (%d rows)%s" % (tag, "exact" if ok else "differs", len(want_rows),
                                       (" exit %s %s" % (code, err.strip()[-100:])) if code else "")


def tree(folder):
    out = {}
    for root, _, fs in os.walk(folder):
        for f in fs:
            p = os.path.join(root, f)
            with open(p, "rb") as h:
                out[os.path.relpath(p, folder)] = h.read()
    return out


PLANS = {
    "classic": [("classic", 4, False, False), ("classic", 6, True, False), ("classic", 6, False, False),
                ("classic", 8, False, False), ("classic", 9, False, False), ("classic", 6, False, True),
                ("jigsaw", 6, True, False), ("jigsaw", 9, False, False), ("jigsaw", 6, False, True),
                ("jigsaw", 6, True, False)],
    "killer": [("killer", 6, True, False), ("killer", 6, True, False), ("killer", 6, True, True),
               ("killer", 6, False, False), ("killer", 6, True, True), ("killer", 6, False, True),
               ("killer", 6, True, True), ("killer", 6, True, False), ("mixed", 6, True, False)],
    "signs": [("signs", 6, True, False), ("signs", 6, False, False), ("signs", 6, True, False),
              ("signs", 6, True, False), ("signs", 6, False, True), ("thermo", 6, True, False), ("thermo", 6, True, False),
              ("thermo", 6, False, False), ("thermo", 6, True, True), ("mixed", 6, True, False),
              ("mixed", 6, False, False)],
}
AUDIT_PLAN = [("classic", 6, True, False), ("killer", 6, True, False), ("killer", 6, True, False), ("signs", 6, False, False),
              ("thermo", 6, True, False), ("jigsaw", 6, False, True), ("mixed", 6, True, False)]


def prepare_batch(kind):
    rng = random.Random("%d@%s" % (SEED, kind))
    items = generate(cases.batch, rng, PLANS[kind])
    puzzles, want = cases.files(items), cases.answers(items)
    for k in sorted(puzzles):
        g.digest(k.encode() + puzzles[k])
    return puzzles, {k: v.decode() for k, v in want.items()}


def prepare_audits(n):
    out = []
    for i in range(n):
        rng = random.Random("%d@audit%d" % (SEED, i))
        items = generate(cases.batch, rng, AUDIT_PLAN)
        subs, rows = generate(cases.contest, rng, items, 3, True)
        for k in sorted(subs):
            g.digest(k.encode() + subs[k])
        out.append((cases.files(items), subs, rows))
    return out


def hidden_batch(kind):
    def fn():
        puzzles, want = CASES[kind]
        return run_batch(kind, puzzles, want)
    return fn


def hidden_audit():
    res = [run_audit("audit%d" % i, *c) for i, c in enumerate(CASES["audit"])]
    return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)


def folder_case(src, tag):
    puzzles = tree(os.path.join(src, "puzzles"))
    want = {k: v.decode() for k, v in tree(os.path.join(src, "expected", "answers")).items()}
    s, m1 = run_batch(tag, puzzles, want)
    rows = audit_rows(read(os.path.join(src, "expected", "audit.csv")))
    a, m2 = run_audit(tag + "-audit", puzzles, tree(os.path.join(src, "submissions")), rows)
    return s, a, m1 + "; " + m2


def public():
    ok, msgs = [], []
    for ex in ("example1", "example2"):
        s, a, m = folder_case(os.path.join(HERE, "examples", ex), ex)
        ok.append(s == 1.0 and a)
        msgs.append(m)
    return float(all(ok)), "; ".join(msgs)


def shipped():
    """The shipped contest: its answers (70%, share of puzzles exact) and its audit (30%)."""
    s, a, m = folder_case(os.path.join(HERE, "shipped", "contest"), "contest")
    return 0.7 * s + 0.3 * a, m


CASES = {k: prepare_batch(k) for k in PLANS}
CASES["audit"] = prepare_audits(3)
g.check("public_examples", public)
g.check("hidden_classic_jigsaw", hidden_batch("classic"))
g.check("hidden_killer", hidden_batch("killer"))
g.check("hidden_signs_thermo", hidden_batch("signs"))
g.check("hidden_audit", hidden_audit)
g.check("shipped_contest", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
