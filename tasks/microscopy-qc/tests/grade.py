"""Grades /app/tlqc.py on the public sessions and on seeded hidden sessions whose answers come from
the generator's plan (gen.py): planted defects, stage motion, cells and report mistakes."""
import csv, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "tlqc.py")
# The grader's own copy of the public sessions: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
SAT_TOL = 0.00006
BG_REL = 0.02


def rows(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except Exception:
        return []


def num(text, kind=float):
    try:
        return kind((text or "").strip())
    except ValueError:
        return None


def key_of(r):
    return ((r.get("field") or "").strip(), num(r.get("frame"), int))


def codes(text):
    return tuple(sorted(c.strip() for c in (text or "").split(";") if c.strip()))


def read_qc(path):
    return {key_of(r): ((r.get("status") or "").strip(), codes(r.get("reasons")), num(r.get("saturation")),
                        num(r.get("background"))) for r in rows(path)}


def score_qc(want, path, part):
    """Share of frames right on one part: status (status and reasons), sat or bg; extra rows count against."""
    got = read_qc(path)
    ok = 0
    for key, (reasons, sat, bg) in want.items():
        r = got.get(key)
        if r is None:
            continue
        if part == "status":
            ok += r[0] == ("fail" if reasons else "pass") and r[1] == tuple(sorted(reasons))
        elif part == "sat":
            ok += r[2] is not None and abs(r[2] - sat) <= SAT_TOL
        else:
            ok += r[3] is not None and abs(r[3] - bg) <= BG_REL * abs(bg)
    return ok / max(len(want), len(got)) if want else 1.0


def score_map(want, path, cols):
    """Share of rows whose value columns equal the plan's; extra rows count against."""
    got = {key_of(r): tuple(num(r.get(c), int) for c in cols) for r in rows(path)}
    ok = sum(1 for k, v in want.items() if got.get(k) == (v if isinstance(v, tuple) else (v,)))
    return ok / max(len(want), len(got)) if want or got else 1.0


def score_audit(want, path):
    got = {tuple((r.get(c) or "").strip() for c in ("field", "frame", "item", "reported", "actual")) for r in rows(path)}
    want = {tuple(str(v) for v in w) for w in want}
    return len(want & got) / max(len(want), len(got)) if want or got else 1.0


def execute(case, out):
    os.makedirs(out, exist_ok=True)
    code, _, err = run(["python3", TOOL, case, out], timeout=90)
    return code, err.strip()[-160:]


def write_case(tag, built):
    """Writes one hidden session; its planned answers stay in memory only."""
    files, want = built
    d = os.path.join(TMP, tag)
    for name, data in sorted(files.items()):
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    qc = {k: (q["reasons"], q["sat"] / q["npx"], q["background"]) for k, q in want["qc"].items()}
    return d, dict(qc=qc, drift=want["drift"], cells=want["cells"], audit=want["audit"])


def prepare(kind, n):
    """Every hidden session of a kind with its answers, built before any submitted program runs."""
    try:
        rng = random.Random("%d#%s" % (SEED, kind))
        return [("%s%d" % (kind, i),) + write_case("%s%d" % (kind, i), generate(gen.build, rng, kind)) for i in range(n)]
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def parts(want, out):
    return {
        "status": score_qc(want["qc"], os.path.join(out, "qc.csv"), "status"),
        "sat": score_qc(want["qc"], os.path.join(out, "qc.csv"), "sat"),
        "bg": score_qc(want["qc"], os.path.join(out, "qc.csv"), "bg"),
        "drift": score_map(want["drift"], os.path.join(out, "drift.csv"), ("dx", "dy")),
        "cells": score_map(want["cells"], os.path.join(out, "cells.csv"), ("cells",)),
        "audit": score_audit(want["audit"], os.path.join(out, "audit.csv")),
    }


MIX = {
    "correction": {"bg": 0.5, "sat": 0.25, "status": 0.25},
    "defects": {"status": 0.7, "sat": 0.3},
    "drift": {"drift": 0.8, "status": 0.2},
    "cells": {"cells": 0.8, "drift": 0.2},
    "audit": {"audit": 0.7, "status": 0.3},
}


def score_case(kind, tag, d, want):
    code, err = execute(d, d + "-out")
    p = parts(want, d + "-out")
    mix = MIX[kind]
    s = sum(w * p[k] for k, w in mix.items())
    msg = "%s: %s" % (tag, " ".join("%s %.3f" % (k, p[k]) for k in mix))
    return s, msg + ("" if not code else " (exit %s %s)" % (code, err))


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        res = [score_case(kind, *c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def expected(ex):
    """The public session's answers from the grader's own copy of its expected files."""
    e = os.path.join(PUB, ex, "expected")
    qc = {key_of(r): (codes(r["reasons"]), float(r["saturation"]), float(r["background"]))
          for r in rows(os.path.join(e, "qc.csv"))}
    drift = {key_of(r): (int(r["dx"]), int(r["dy"])) for r in rows(os.path.join(e, "drift.csv"))}
    cells = {key_of(r): int(r["cells"]) for r in rows(os.path.join(e, "cells.csv"))}
    audit = {tuple(r[c] for c in ("field", "frame", "item", "reported", "actual")) for r in rows(os.path.join(e, "audit.csv"))}
    return dict(qc=qc, drift=drift, cells=cells, audit=audit)


def public():
    ok, notes = 0, []
    for ex in ("example1", "example2"):
        case = os.path.join(TMP, "public", ex)
        shutil.copytree(os.path.join(PUB, ex, "session"), case, symlinks=True)
        code, err = execute(case, case + "-out")
        p = parts(expected(ex), case + "-out")
        good = code == 0 and all(v == 1.0 for v in p.values())
        ok += good
        if not good:
            notes.append("%s: exit %s %s %s" % (ex, code, " ".join("%s %.3f" % kv for kv in sorted(p.items())), err))
    return float(ok == 2), "%d of 2 sessions right%s" % (ok, ("; " + "; ".join(notes)) if notes else "")


KINDS = (("correction", 2), ("defects", 2), ("drift", 2), ("cells", 2), ("audit", 2))
CASES = {k: prepare(k, n) for k, n in KINDS}
g.check("public_examples", public)
g.check("hidden_correction", hidden("correction"))
g.check("hidden_defects", hidden("defects"))
g.check("hidden_drift", hidden("drift"))
g.check("hidden_cells", hidden("cells"))
g.check("hidden_audit", hidden("audit"))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
