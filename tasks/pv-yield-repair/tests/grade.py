"""Grades the repaired /app/pvctl.py (expected, monthly, audit) on the public examples, the
shipped site and seeded hidden plants whose answers come from the grader's own vector-form model
(pvref.py) and from planted meter anomalies (gen.py)."""
import csv, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run
import gen, pvref

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "pvctl.py")
HERE = os.path.dirname(os.path.abspath(__file__))
PUB = os.path.join(HERE, "examples")  # the grader's own copy; /app/examples is the agent's


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


def close(got, want, abs_tol, rel_tol):
    return got is not None and want is not None and abs(got - want) <= abs_tol + rel_tol * abs(want)


def execute(command, site, out):
    code, _, err = run(["python3", TOOL, command, site, out], timeout=60)
    return code, err.strip()[-160:]


# ------------------------------------------------------------------ expected rows

def want_intervals(plant, step, rows):
    """{start text: (status, poa, cell, dc, ac)} from pvref."""
    out = {}
    for t, status, r, ac in pvref.expected(plant, step, rows):
        out[pvref.text_of(t)] = (status, r["poa"] if r else None, r["cell"] if r else None, r["dc"] if r else None, ac)
    return out


def interval_ok(want, got):
    status, poa, cell, dc, ac = want
    if got is None or got.get("status") != status:
        return False
    if status == "missing":
        return num(got.get("ac_kwh")) is None
    if not close(num(got.get("ac_kwh")), ac, 1e-4, 1e-5):
        return False
    if status == "filled":
        return True
    return (close(num(got.get("poa_wm2")), poa, 0.01, 1e-5) and close(num(got.get("cell_temp_c")), cell, 0.005, 0.0)
            and close(num(got.get("dc_kw")), dc, 1e-3, 1e-5))


def score_intervals(want, path, all_rows=False):
    got = {}
    rows = read_csv(path)
    for r in rows:
        got.setdefault(r.get("start", ""), r)
    keys = [k for k, w in want.items() if all_rows or w[0] != "ok" or (w[4] or 0) > 0]
    ok = sum(1 for k in keys if interval_ok(want[k], got.get(k)))
    extra = max(0, len(rows) - len(want))
    return ok / float(len(keys) + extra) if keys else 1.0


def want_monthly(plant, step, rows):
    return gen.month_table(plant, step, rows)


def score_monthly(want, path):
    rows = read_csv(path)
    got = {r.get("month"): r for r in rows}
    ok = 0
    for k, (kwh, clip, miss, sy) in want.items():
        r = got.get(k)
        if r and close(num(r.get("expected_kwh")), kwh, 0.01, 1e-5) and close(num(r.get("clipped_kwh")), clip, 0.01, 1e-5) \
                and close(num(r.get("missing_hours")), miss, 1e-3, 0.0) \
                and close(num(r.get("specific_yield_kwh_per_kwp")), sy, 1e-5, 1e-5):
            ok += 1
    n = max(len(want), len(rows))
    return ok / float(n) if n else 1.0


def score_audit(want, path):
    rows = read_csv(path)
    got = {}
    for r in rows:
        got.setdefault((r.get("date"), r.get("code")), num(r.get("value")))
    ok = 0
    for day, code, v in want:
        gv = got.get((day, code))
        if code == "meter_timestamp_shift":
            ok += gv is not None and gv == v
        else:
            ok += close(gv, v, 0.01, 1e-5)
    n = max(len(want), len(rows))
    return ok / float(n) if n else 1.0


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
        files, plant, found = gen.audit_case(rng)
        return tag, write_case(tag, files), found
    if kind == "monthly":
        files, plant, step, rows = gen.monthly_case(rng)
        return tag, write_case(tag, files), want_monthly(plant, step, rows)
    files, plant, step, rows = gen.interval_case(rng, kind)
    return tag, write_case(tag, files), want_intervals(plant, step, rows)


def prepare(kind, n):
    """Every hidden case of a kind with its answers, built before any submitted program runs."""
    rng = random.Random("%d#%s" % (SEED, kind))
    return [generate(build, kind, i, rng) for i in range(n)]


def hidden(kind):
    def fn():
        scores, notes = [], []
        for tag, d, want in CASES[kind]:
            cmd = {"audit": "audit", "monthly": "monthly"}.get(kind, "expected")
            out = d + "-out.csv"
            code, err = execute(cmd, d, out)
            if kind == "audit":
                s = score_audit(want, out)
            elif kind == "monthly":
                s = score_monthly(want, out)
            else:
                s = score_intervals(want, out)
            scores.append(s)
            notes.append("%s %.3f%s" % (tag, s, (" exit %s %s" % (code, err)) if code else ""))
        return sum(scores) / len(scores), "; ".join(notes)
    return fn


def staged(src):
    dst = os.path.join(TMP, "public", os.path.relpath(src, HERE))
    shutil.copytree(src, dst)
    return dst


def public():
    good, notes = 0, []
    for ex in ("example1", "example2"):
        site = staged(os.path.join(PUB, ex, "site"))
        exp = os.path.join(PUB, ex, "expected")
        for cmd in ("expected", "monthly", "audit"):
            out = os.path.join(TMP, "%s-%s.csv" % (ex, cmd))
            code, err = execute(cmd, site, out)
            if cmd == "expected":
                want = {}
                for r in read_csv(os.path.join(exp, "intervals.csv")):
                    want[r["start"]] = (r["status"], num(r["poa_wm2"]), num(r["cell_temp_c"]), num(r["dc_kw"]), num(r["ac_kwh"]))
                s = score_intervals(want, out, all_rows=True)
            elif cmd == "monthly":
                want = {r["month"]: (num(r["expected_kwh"]), num(r["clipped_kwh"]), num(r["missing_hours"]),
                                     num(r["specific_yield_kwh_per_kwp"])) for r in read_csv(os.path.join(exp, "monthly.csv"))}
                s = score_monthly(want, out)
            else:
                want = [(r["date"], r["code"], num(r["value"])) for r in read_csv(os.path.join(exp, "audit.csv"))]
                s = score_audit(want, out)
            good += s >= 1.0
            if s < 1.0:
                notes.append("%s %s: %.3f%s" % (ex, cmd, s, (" exit %s %s" % (code, err)) if code else ""))
    return float(good == 6), "%d of 6 outputs right%s" % (good, ("; " + "; ".join(notes)) if notes else "")


def site_monthly():
    site = staged(os.path.join(HERE, "site"))
    plant = __import__("json").load(open(os.path.join(site, "plant.json")))
    step, rows = gen.read_rows(open(os.path.join(site, "weather.csv"), encoding="utf-8").read())
    want = want_monthly(plant, step, rows)
    out = os.path.join(TMP, "site-monthly.csv")
    code, err = execute("monthly", site, out)
    s = score_monthly(want, out)
    return s, "site %.3f%s" % (s, (" exit %s %s" % (code, err)) if code else "")


KINDS = (("geometry", 3), ("weather", 3), ("power", 2), ("monthly", 2), ("audit", 2))
CASES = {k: prepare(k, n) for k, n in KINDS}
g.check("public_examples", public)
g.check("hidden_geometry", hidden("geometry"))
g.check("hidden_weather", hidden("weather"))
g.check("hidden_power", hidden("power"))
g.check("site_monthly", site_monthly)
g.check("hidden_monthly", hidden("monthly"))
g.check("hidden_audit", hidden("audit"))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
