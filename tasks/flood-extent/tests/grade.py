"""Grades /app/floodctl.py on the public cases and on seeded hidden scenes whose answers are
counted from the generator's plan (gen.py): planted water, clouds, tiles and district cells."""
import csv, os, random, shutil, sys, tempfile
from decimal import Decimal, InvalidOperation
from fractions import Fraction
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "floodctl.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")


def rows(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except Exception:
        return []


def hundredths(text):
    """A hectare field as integer hundredths, or None when it is not a two-decimal amount."""
    try:
        v = Decimal((text or "").strip()) * 100
    except InvalidOperation:
        return None
    return int(v) if v == v.to_integral_value() else None


def frac(text):
    try:
        return Fraction((text or "").strip())
    except (ValueError, ZeroDivisionError):
        return None


def yes(text):
    return {"yes": True, "no": False}.get((text or "").strip().lower())


def score_flood(want, path):
    """Per district: half for the observed area, half for the flooded area; extra rows count against."""
    got = {}
    for r in rows(path):
        got[(r.get("district") or "").strip()] = (hundredths(r.get("observed_ha")), hundredths(r.get("flooded_ha")))
    pts = 0.0
    for name, (obs, fl) in want.items():
        o, f = got.get(name, (None, None))
        pts += 0.5 * (o == obs) + 0.5 * (f == fl)
    return pts / max(len(want), len(got)) if want else 1.0


def read_audit(path):
    got = {}
    for r in rows(path):
        got[((r.get("date") or "").strip(), (r.get("tile") or "").strip())] = (
            frac(r.get("cloud_fraction")), yes(r.get("cloudy")), yes(r.get("misregistered")))
    return got


def score_audit(want, path):
    """Share of tile rows right: cloud fraction within 0.0001, both flags; extra rows count against."""
    got = read_audit(path)
    ok = 0
    for key, (fr, cloudy, mis) in want.items():
        r = got.get(key)
        ok += r is not None and r[0] is not None and abs(r[0] - fr) <= Fraction(1, 10000) and r[1] == cloudy and r[2] == mis
    return ok / max(len(want), len(got)) if want else 1.0


def flags_right(want, path):
    """1 when exactly the planted shifted tiles are flagged misregistered."""
    got = read_audit(path)
    planted = {k for k, v in want.items() if v[2]}
    return float(bool(got) and {k for k, v in got.items() if v[2]} == planted)


def execute(command, case, out):
    code, _, err = run(["python3", TOOL, command, case, out], timeout=60)
    return code, err.strip()[-160:]


def write_case(tag, built):
    """Writes one hidden scene; its planned answers stay in memory only."""
    files, want = built
    d = os.path.join(TMP, tag)
    for name, data in sorted(files.items()):
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    return d, want


def prepare(kind, n):
    """Every hidden scene of a kind with its answers, built before any submitted program runs."""
    try:
        rng = random.Random("%d#%s" % (SEED, kind))
        return [("%s%d" % (kind, i),) + write_case("%s%d" % (kind, i), generate(gen.build, rng, kind)) for i in range(n)]
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def score_case(kind, tag, d, want):
    notes = []
    code, err = execute("flood", d, d + "-flood.csv")
    fl = score_flood(want["flood"], d + "-flood.csv")
    if code:
        notes.append("flood exit %s %s" % (code, err))
    if kind in ("clouds", "audit"):
        code, err = execute("audit", d, d + "-audit.csv")
        au = score_audit(want["audit"], d + "-audit.csv")
        if code:
            notes.append("audit exit %s %s" % (code, err))
        if kind == "clouds":
            s = 0.5 * fl + 0.5 * au
            msg = "%s: flood %.3f audit %.3f" % (tag, fl, au)
        else:
            fg = flags_right(want["audit"], d + "-audit.csv")
            s = 0.4 * fg + 0.3 * au + 0.3 * fl
            msg = "%s: flags %.0f audit %.3f flood %.3f" % (tag, fg, au, fl)
    else:
        s, msg = fl, "%s: flood %.3f" % (tag, fl)
    return s, msg + ("" if not notes else " (" + "; ".join(notes) + ")")


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        res = [score_case(kind, *c) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def public():
    ok, notes = [], []
    for ex in ("example1", "example2"):
        case = os.path.join(TMP, "public", ex)
        shutil.copytree(os.path.join(PUB, ex, "case"), case, symlinks=True)
        for command in ("flood", "audit"):
            out = os.path.join(TMP, "%s-%s.csv" % (ex, command))
            code, err = execute(command, case, out)
            exp = os.path.join(PUB, ex, "expected", command + ".csv")
            if command == "flood":
                want = {r["district"]: (hundredths(r["observed_ha"]), hundredths(r["flooded_ha"])) for r in rows(exp)}
                good = code == 0 and score_flood(want, out) == 1.0
            else:
                want = {(r["date"], r["tile"]): (Fraction(r["cloud_fraction"]), yes(r["cloudy"]), yes(r["misregistered"]))
                        for r in rows(exp)}
                good = code == 0 and score_audit(want, out) == 1.0
            ok.append(good)
            if not good:
                notes.append("%s %s: exit %s %s" % (ex, command, code, err))
    return float(all(ok)), "%d of %d outputs right%s" % (sum(ok), len(ok), ("; " + "; ".join(notes)) if notes else "")


KINDS = (("plain", 2), ("bands", 2), ("districts", 2), ("clouds", 2), ("audit", 2))
CASES = {k: prepare(k, n) for k, n in KINDS}
g.check("public_examples", public)
g.check("hidden_plain", hidden("plain"))
g.check("hidden_bands_geo", hidden("bands"))
g.check("hidden_districts", hidden("districts"))
g.check("hidden_clouds", hidden("clouds"))
g.check("hidden_audit", hidden("audit"))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
