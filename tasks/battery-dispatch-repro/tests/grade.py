"""Grades the repaired /app/battctl.py (dispatch, bill, study, audit) on the public examples, the
shipped study and seeded hidden sites whose answers come from the grader's own energy-form model
(ref.py) and from planted vendor-log anomalies (gen.py)."""
import csv
import json
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import gen  # noqa: E402
import ref  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "battctl.py")
HERE = os.path.dirname(os.path.abspath(__file__))
PUB = os.path.join(HERE, "examples")  # the grader's own copy; /app/examples is the agent's
POWER = ("load_kw", "price", "charge_kw", "discharge_kw", "grid_kw", "soc_kwh")
MONEY = ("baseline_energy_cost", "baseline_demand_cost", "energy_cost", "demand_cost", "savings", "degradation_cost")
BILL_FINE = ("baseline_peak_kw", "peak_kw", "throughput_kwh", "equivalent_full_cycles")
STUDY_MONEY = ("baseline_cost", "battery_cost", "energy_savings", "demand_savings", "bill_savings",
               "degradation_cost", "net_savings")
STUDY_FINE = ("capacity_kwh", "power_kw", "equivalent_full_cycles")


def read_csv(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(f)]
    except Exception:
        return []


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def close(got, want, abs_tol, rel_tol=1e-6):
    return got is not None and want is not None and abs(got - want) <= abs_tol + rel_tol * abs(want)


def execute(command, folder, out):
    code, _, err = run(["python3", TOOL, command, folder, out], timeout=60)
    return code, err.strip()[-160:]


def note(tag, s, code, err):
    return "%s %.3f%s" % (tag, s, (" exit %s %s" % (code, err)) if code else "")


# ------------------------------------------------------------------ scoring

def want_dispatch(site, text):
    rows, _ = ref.bill_table(site, ref.series(text))
    return {ref.utc_key(r[0]): dict(zip(POWER, (r[2], r[3], r[4], r[5], r[6], r[7]))) for r in rows}


def score_dispatch(want, path):
    """Right active rows (the battery charges or discharges) over active rows plus every wrong,
    missing or extra idle row: idle rows the battery sits through do not inflate the share."""
    rows = read_csv(path)
    got = {}
    for r in rows:
        got.setdefault(r.get("start", ""), r)
    ok = active = wrong_idle = 0
    for k, w in want.items():
        r = got.get(k)
        right = r is not None and all(close(num(r.get(c)), w[c], 1e-4) for c in POWER)
        if w["charge_kw"] > 0 or w["discharge_kw"] > 0:
            active += 1
            ok += right
        else:
            wrong_idle += not right
    extra = len(rows) - sum(1 for k in got if k in want)
    n = active + wrong_idle + extra
    return ok / float(n) if n else 1.0


def want_bill(site, text):
    return ref.bill_table(site, ref.series(text))[1]


def score_bill(want, path):
    rows = read_csv(path)
    got = {r.get("month"): r for r in rows}
    ok = 0
    for m, w in want.items():
        r = got.get(m)
        ok += r is not None and all(close(num(r.get(c)), w[c], 0.01) for c in MONEY) \
            and all(close(num(r.get(c)), w[c], 1e-4) for c in BILL_FINE)
    n = max(len(want), len(rows))
    return ok / float(n) if n else 1.0


def score_study(want, path):
    rows = read_csv(path)
    got = {(num(r.get("capacity_kwh")), num(r.get("power_kw"))): r for r in rows}
    ok = 0
    for w in want:
        r = got.get((w["capacity_kwh"], w["power_kw"]))
        ok += r is not None and all(close(num(r.get(c)), w[c], 0.01) for c in STUDY_MONEY) \
            and all(close(num(r.get(c)), w[c], 1e-4) for c in STUDY_FINE)
    n = max(len(want), len(rows))
    return ok / float(n) if n else 1.0


def score_audit(want, path):
    """Mean over the reason codes (wanted or reported) of the share of that code's rows right."""
    rows = read_csv(path)
    got = {}
    for r in rows:
        got.setdefault((r.get("key"), r.get("code")), num(r.get("value")))
    codes = {c for _, c, _ in want} | {c for _, c in got}
    if not codes:
        return 1.0
    parts = []
    for code in sorted(codes):
        w = [(k, v) for k, c, v in want if c == code]
        n_got = sum(1 for _, c in got if c == code)
        tol = 0.01 if code == "CLAIM" else 1e-4
        ok = sum(1 for k, v in w if close(got.get((k, code)), v, tol))
        parts.append(ok / float(max(len(w), n_got)))
    return sum(parts) / len(parts)


# ------------------------------------------------------------------ cases

def write_case(tag, files):
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    for name, text in sorted(files.items()):
        with open(os.path.join(d, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)
        g.digest(name + "\n" + text)
    return d


def build(kind, i, rng):
    tag = "%s%d" % (kind, i)
    if kind == "audit":
        files, site, found = gen.audit_case(rng)
        return tag, write_case(tag, files), found
    if kind == "study":
        files, study, text = gen.study_case(rng)
        return tag, write_case(tag, files), ref.study_table(study, ref.series(text))
    files, site, text = gen.site_case(rng, kind)
    want = want_bill(site, text) if kind == "bill" else want_dispatch(site, text)
    return tag, write_case(tag, files), want


def prepare(kind, n):
    """Every hidden case of a kind with its answers, built before any submitted program runs."""
    rng = random.Random("%d#%s" % (SEED, kind))
    return [generate(build, kind, i, rng) for i in range(n)]


def hidden(kind):
    def fn():
        scores, notes = [], []
        for tag, d, want in CASES[kind]:
            cmd = {"audit": "audit", "study": "study", "bill": "bill"}.get(kind, "dispatch")
            out = d + "-out.csv"
            code, err = execute(cmd, d, out)
            s = {"audit": score_audit, "study": score_study, "bill": score_bill}.get(kind, score_dispatch)(want, out)
            scores.append(s)
            notes.append(note(tag, s, code, err))
        return sum(scores) / len(scores), "; ".join(notes)
    return fn


def staged(src):
    dst = os.path.join(TMP, "public", os.path.relpath(src, HERE))
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("expected"))
    return dst


def public():
    good, notes = 0, []
    for ex in ("example1", "example2"):
        site_dir = staged(os.path.join(PUB, ex))
        exp = os.path.join(PUB, ex, "expected")
        for cmd in ("dispatch", "bill", "audit"):
            out = os.path.join(TMP, "%s-%s.csv" % (ex, cmd))
            code, err = execute(cmd, site_dir, out)
            if cmd == "dispatch":
                want = {r["start"]: {c: num(r[c]) for c in POWER} for r in read_csv(os.path.join(exp, "dispatch.csv"))}
                s = score_dispatch(want, out)
            elif cmd == "bill":
                want = {r["month"]: {c: num(r[c]) for c in MONEY + BILL_FINE} for r in read_csv(os.path.join(exp, "bill.csv"))}
                s = score_bill(want, out)
            else:
                want = [(r["key"], r["code"], num(r["value"])) for r in read_csv(os.path.join(exp, "audit.csv"))]
                s = score_audit(want, out)
            good += s >= 1.0
            if s < 1.0:
                notes.append("%s %s: %s" % (ex, cmd, note("", s, code, err).strip()))
    return float(good == 6), "%d of 6 outputs right%s" % (good, ("; " + "; ".join(notes)) if notes else "")


def site_study():
    d = staged(os.path.join(HERE, "study"))
    with open(os.path.join(d, "study.json"), encoding="utf-8") as f:
        study = json.load(f)
    with open(os.path.join(d, "load.csv"), encoding="utf-8") as f:
        want = ref.study_table(study, ref.series(f.read()))
    out = os.path.join(TMP, "site-study.csv")
    code, err = execute("study", d, out)
    s = score_study(want, out)
    return s, note("study", s, code, err)


KINDS = (("dispatch", 3), ("inputs", 3), ("bill", 3), ("study", 2), ("audit", 3))
CASES = {k: prepare(k, n) for k, n in KINDS}
g.check("public_examples", public)
g.check("hidden_dispatch", hidden("dispatch"))
g.check("hidden_inputs", hidden("inputs"))
g.check("hidden_bill", hidden("bill"))
g.check("site_study", site_study)
g.check("hidden_study", hidden("study"))
g.check("hidden_audit", hidden("audit"))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
