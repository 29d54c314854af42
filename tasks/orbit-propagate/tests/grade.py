"""Grades the repaired /app/propagate.py: the batch call `propagate.py INPUT OUTPUT` on fresh bodies
(positions from fg_reference, f and g in dE/dH), `report` on fresh catalogues around leap seconds and
on the shipped catalogue (answers from ref.py), and `audit` on claims with planted mistakes."""
import json
import math
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import WORK, Grader, generate, rng_for, run  # noqa: E402
import fg_reference  # noqa: E402
import gen  # noqa: E402
import ref  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "propagate.py")
# The grader's own copies of the examples and the shipped files: /app is the agent's to edit.
HERE = os.path.dirname(os.path.abspath(__file__))
TOL, CUT = 1e-6, 1e-2


def logscore(err):
    if err is None or err != err:
        return 0.0
    if err <= TOL:
        return 1.0
    if err >= CUT:
        return 0.0
    return (math.log10(CUT) - math.log10(err)) / (math.log10(CUT) - math.log10(TOL))


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except Exception:
        return {}


def save(tag, doc):
    p = os.path.join(TMP, tag + ".json")
    text = json.dumps(doc, indent=1)
    g.digest(text)
    with open(p, "w") as f:
        f.write(text)
    return p


def batch(tag, doc):
    """Relative position errors of one batch run (None where missing)."""
    p = save(tag, doc)
    o = os.path.join(TMP, tag + ".out.json")
    code, _, err = run(["python3", TOOL, p, o], timeout=30)
    want = fg_reference.solve(doc)["positions"]
    got = load(o).get("positions", {}) if isinstance(load(o), dict) else {}
    errs = []
    for bid, rows in want.items():
        mine = got.get(bid) if isinstance(got, dict) else None
        for k, r in enumerate(rows):
            try:
                errs.append(math.dist([float(x) for x in mine[k]], r) / ref.mag(r))
            except Exception:
                errs.append(None)
    worst = max((e for e in errs if e is not None), default=None)
    return errs, "%s worst %s, %d missing%s" % (tag, worst, sum(e is None for e in errs), (" exit %s %s" % (code, err.strip()[-100:])) if code else "")


def vec_ok(a, b, rel):
    try:
        return len(a) == 3 and math.dist([float(x) for x in a], b) <= rel * ref.mag(b)
    except Exception:
        return False


def num_ok(a, b, tol):
    if b is None:
        return a is None
    return isinstance(a, (int, float)) and not isinstance(a, bool) and abs(a - b) <= tol


def row_ok(got, want, radius):
    if not isinstance(got, dict):
        return False
    times = got.get("periapsis_s")
    return (vec_ok(got.get("r"), want["r"], 1e-6) and vec_ok(got.get("v"), want["v"], 1e-6)
            and num_ok(got.get("a"), want["a"], 1e-7 * abs(want["a"]))
            and num_ok(got.get("e"), want["e"], 1e-6) and num_ok(got.get("i_deg"), want["i_deg"], 1e-6)
            and num_ok(got.get("period"), want["period"], 1e-7 * (want["period"] or 0))
            and num_ok(got.get("perigee_alt"), want["perigee_alt"], 1e-7 * (want["perigee_alt"] + radius))
            and isinstance(times, list) and len(times) == len(want["periapsis_s"])
            and all(num_ok(x, y, 1e-3) for x, y in zip(times, want["periapsis_s"])))


def report_case(tag, cat, want=None):
    p = save(tag, cat)
    o = os.path.join(TMP, tag + ".report.json")
    code, _, err = run(["python3", TOOL, "report", p, o], timeout=60)
    want = want if want is not None else ref.report(cat)
    got = load(o)
    rows = got.get("objects", []) if isinstance(got, dict) else []
    byid = {r.get("id"): r for r in rows if isinstance(r, dict)}
    radius = {ob["id"]: ob["body_radius"] for ob in cat["objects"]}
    bad = [w["id"] for w in want if not row_ok(byid.get(w["id"]), w, radius[w["id"]])]
    order = [r.get("id") for r in rows if isinstance(r, dict)] == [w["id"] for w in want]
    s = float(not bad and order)  # a report counts only when every row is right
    return s, "%s report %d of %d rows right%s%s%s" % (tag, len(want) - len(bad), len(want), (" wrong: " + ",".join(bad[:4])) if bad else "", "" if order else " order",
                                        (" exit %s %s" % (code, err.strip()[-100:])) if code else "")


def want_audit(doc):
    out = {}
    for c in doc["claims"]:
        why, right, per = ref.audit_reason(c)
        if why:
            out[c["claim_id"]] = (why, right, per)
    return out


def audit_case(tag, doc, want=None):
    p = save(tag, doc)
    o = os.path.join(TMP, tag + ".audit.json")
    code, _, err = run(["python3", TOOL, "audit", p, o], timeout=60)
    want = want if want is not None else want_audit(doc)
    got = load(o)
    rows = got.get("findings", []) if isinstance(got, dict) else []
    byid = {r.get("claim_id"): r for r in rows if isinstance(r, dict)}
    hits = sum(1 for k, (why, right, per) in want.items()
               if byid.get(k, {}).get("reason") == why and vec_ok(byid[k].get("r"), right, 1e-6)
               and num_ok(byid[k].get("period"), per, 1e-7 * (per or 0)))
    s = float(hits == len(want) == len(byid))  # an audit counts only when every finding is right
    return s, "%s audit %d (%d of %d findings, %d written)%s" % (tag, s, hits, len(want), len(byid), (" exit %s %s" % (code, err.strip()[-100:])) if code else "")


def prepare(kind, count):
    """Every hidden input of a kind with its answer, built before any submitted program runs."""
    try:
        rng = random.Random(rng_for(kind).next_u32())
        cases = []
        for i in range(count):
            tag = "%s%d" % (kind, i)
            if kind.startswith("batch-"):
                sub = kind[6:].split("+")[i % len(kind[6:].split("+"))]
                cases.append((tag, generate(gen.case, rng, sub)))
            elif kind.startswith("report-"):
                cat = generate(gen.catalog, rng, kind[7:])
                cases.append((tag, cat, generate(ref.report, cat)))
            else:
                doc = generate(gen.claims, rng, 12)
                cases.append((tag, doc, generate(want_audit, doc)))
        return cases
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        if kind.startswith("batch-"):
            errs, msgs = [], []
            for tag, doc in cases:
                es, m = batch(tag, doc)
                errs += es
                msgs.append(m)
            return sum(logscore(e) for e in errs) / len(errs), "; ".join(msgs)
        res = [report_case(*c) if kind.startswith("report-") else audit_case(*c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def exp_report(path):
    return load(path)["objects"]


def exp_audit(path):
    return {r["claim_id"]: (r["reason"], r["r"], r["period"]) for r in load(path)["findings"]}


def public():
    ok, msgs = [], []
    for ex in ("example1", "example2"):
        src = os.path.join(HERE, "examples", ex)
        errs, m = batch(ex, load(os.path.join(src, "bodies.json")))
        want = load(os.path.join(src, "bodies.expected.json"))["positions"]
        s1 = all(e is not None and e <= TOL for e in errs) and len(errs) == sum(len(v) for v in want.values())
        s2, m2 = report_case(ex, load(os.path.join(src, "catalog.json")), exp_report(os.path.join(src, "report.expected.json")))
        s3, m3 = audit_case(ex, load(os.path.join(src, "claims.json")), exp_audit(os.path.join(src, "audit.expected.json")))
        ok.append(s1 and s2 == 1.0 and s3 == 1.0)
        msgs += [m, m2, m3]
    return float(all(ok)), "; ".join(msgs)


def shipped():
    """The shipped catalogue's report (50%) and the audit of the other team's claims (50%)."""
    src = os.path.join(HERE, "shipped")
    s, m = report_case("shipped", load(os.path.join(src, "catalog.json")))
    a, m2 = audit_case("shipped", load(os.path.join(src, "claims.json")))
    return 0.5 * s + 0.5 * a, m + "; " + m2


CASES = {"batch-general+circular+eccentric": prepare("batch-general+circular+eccentric", 3),
         "batch-hyperbolic+units": prepare("batch-hyperbolic+units", 2),
         "report-time": prepare("report-time", 3), "report-orbits": prepare("report-orbits", 3),
         "audit": prepare("audit", 3)}
g.check("public_examples", public)
g.check("hidden_propagate", hidden("batch-general+circular+eccentric"))
g.check("hidden_flyby_units", hidden("batch-hyperbolic+units"))
g.check("hidden_report_time", hidden("report-time"))
g.check("hidden_report_orbits", hidden("report-orbits"))
g.check("hidden_audit", hidden("audit"))
g.check("shipped_catalog", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
