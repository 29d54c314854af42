"""Grades /app/labelscan.py on the public examples and on seeded hidden labels and scan batches.
Every expected answer comes from the generator's plan (gen.py): the code is chosen first, then
turned into bars and drawn, so the grader never decodes an image itself."""
import json
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import gen  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "labelscan.py")
# The grader's own copies of the public examples and the shipped batch: /app is the agent's to edit.
HERE = os.path.dirname(os.path.abspath(__file__))
PUB = os.path.join(HERE, "examples")
SHIPPED = os.path.join(HERE, "batch")


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception:
        return None


def label_right(want, got):
    """A label is right when every field the plan fixes is reported as planned."""
    if not isinstance(got, dict):
        return False
    return all(got.get(k) == v for k, v in want.items())


def score_labels(truth, got):
    if not isinstance(got, dict):
        return 0.0, []
    wrong = [n for n in sorted(truth) if not label_right(truth[n], got.get(n))]
    return (1.0 - len(wrong) / float(len(truth))) ** 2, wrong


def score_reconcile(want, got):
    if not isinstance(got, dict):
        return 0.0
    ok = total = 0
    lines = {}
    for r in got.get("lines") or []:
        if isinstance(r, dict):
            lines[r.get("line")] = r
    for r in want["lines"]:
        total += 1
        ok += label_right(r, lines.get(r["line"]))
    total += max(0, len(lines) - len(want["lines"]))
    gu = [u for u in (got.get("unexpected") or []) if isinstance(u, dict)]
    total += max(len(want["unexpected"]), len(gu))
    ok += sum(1 for u in want["unexpected"] if u in gu)
    for key in ("unreadable", "checksum_errors"):
        gl = got.get(key) if isinstance(got.get(key), list) else []
        total += max(len(want[key]), len(gl))
        ok += len(set(want[key]) & set(x for x in gl if isinstance(x, str)))
    return ok / float(total) if total else 1.0


def score_audit(want, got):
    if not isinstance(got, list):
        return 0.0
    rows = {}
    for r in got:
        if isinstance(r, dict):
            rows[r.get("entry")] = r.get("reason")
    ok = sum(1 for r in want if rows.get(r["entry"]) == r["reason"])
    return ok / float(max(len(want), len(rows)))


def write_files(d, files):
    for name, data in sorted(files.items()):
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)


def execute(cmd, src, out):
    code, _, err = run(["python3", TOOL, cmd, src, out], timeout=300)
    return code, err.strip()[-160:]


def prepare_labels(kind):
    """A folder of hidden labels with their planned readings, built before any program runs."""
    try:
        rng = random.Random("%d#labels-%s" % (SEED, kind))
        labels = generate(gen.label_set, rng, kind)
        d = os.path.join(TMP, "labels-" + kind)
        os.makedirs(d)
        write_files(d, {name: generate(gen.render, rng, lab) for name, lab in labels})
        return d, {name: gen.truth_of(lab) for name, lab in labels}
    except Exception as e:  # reported by that check, the other checks still run
        return e


def prepare_batches(kind, n):
    try:
        out = []
        for i in range(n):
            rng = random.Random("%d#batch-%s-%d" % (SEED, kind, i))
            files, truth = generate(gen.build_batch, rng, *((5, 5) if i == 0 else (4, 6)))
            d = os.path.join(TMP, "batch-%s-%d" % (kind, i))
            write_files(d, files)
            out.append((d, truth))
        return out
    except Exception as e:
        return e


def hidden_labels(kind):
    def fn():
        case = LABELS[kind]
        if isinstance(case, Exception):
            raise case
        d, truth = case
        out = d + "-out.json"
        code, err = execute("decode", d, out)
        s, wrong = score_labels(truth, load(out))
        note = "%d of %d labels right" % (len(truth) - len(wrong), len(truth))
        if wrong:
            note += "; wrong: " + ", ".join("%s (%s)" % (n, truth[n]["status"]) for n in wrong[:8])
        if code:
            note += " (exit %s %s)" % (code, err)
        return s, note
    return fn


def hidden_batches(kind):
    def fn():
        cases = BATCHES[kind]
        if isinstance(cases, Exception):
            raise cases
        scores, notes = [], []
        for d, truth in cases:
            out = d + "-out.json"
            code, err = execute(kind, d, out)
            s = score_reconcile(truth["reconcile"], load(out)) if kind == "reconcile" else score_audit(truth["audit"], load(out))
            scores.append(s)
            notes.append("%s %.3f%s" % (os.path.basename(d), s, "" if not code else " (exit %s %s)" % (code, err)))
        return sum(scores) / len(scores), "; ".join(notes)
    return fn


def public():
    truth = load(os.path.join(HERE, "examples_truth.json"))
    case = os.path.join(TMP, "public")
    shutil.copytree(PUB, case, ignore=shutil.ignore_patterns("expected"))
    notes = []
    out = os.path.join(TMP, "public-decode.json")
    code, err = execute("decode", os.path.join(case, "labels"), out)
    s, wrong = score_labels(truth["labels"], load(out))
    if wrong:
        notes.append("labels wrong: %s %s" % (", ".join(wrong), err))
    r_out, a_out = os.path.join(TMP, "public-reconcile.json"), os.path.join(TMP, "public-audit.json")
    execute("reconcile", os.path.join(case, "batch"), r_out)
    execute("audit", os.path.join(case, "batch"), a_out)
    r = score_reconcile(truth["batch"]["reconcile"], load(r_out))
    a = score_audit(truth["batch"]["audit"], load(a_out))
    if r < 1:
        notes.append("reconcile %.3f" % r)
    if a < 1:
        notes.append("audit %.3f" % a)
    good = s == 1.0 and r == 1.0 and a == 1.0
    return float(good), "all right" if good else "; ".join(notes)


def batch_results():
    """reconcile and audit of the shipped batch (the grader's copy), against its planted answers."""
    truth = load(os.path.join(HERE, "batch_truth.json"))
    case = os.path.join(TMP, "shipped")
    shutil.copytree(SHIPPED, case)
    r_out, a_out = os.path.join(TMP, "shipped-reconcile.json"), os.path.join(TMP, "shipped-audit.json")
    execute("reconcile", case, r_out)
    execute("audit", case, a_out)
    r = score_reconcile(truth["reconcile"], load(r_out))
    a = score_audit(truth["audit"], load(a_out))
    return 0.5 * r + 0.5 * a, "reconcile %.3f, audit %.3f" % (r, a)


LABELS = {k: prepare_labels(k) for k in ("ean", "code128", "conditions")}
BATCHES = {k: prepare_batches(k, 2) for k in ("reconcile", "audit")}
g.check("public_examples", public)
g.check("hidden_ean", hidden_labels("ean"))
g.check("hidden_code128", hidden_labels("code128"))
g.check("hidden_conditions", hidden_labels("conditions"))
g.check("hidden_reconcile", hidden_batches("reconcile"))
g.check("hidden_audit", hidden_batches("audit"))
g.check("batch_results", batch_results)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
