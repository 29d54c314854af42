"""Grades the repaired /app/windpc.py: `run` on the public examples, on seeded hidden sites whose
expected tables come from the planted truth through ref.py, and on the shipped farm; `audit` on
operator claims with planted errors."""
import csv
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
TMP = tempfile.mkdtemp(prefix="wind-")
TOOL = os.path.join(WORK, "windpc.py")
HERE = os.path.dirname(os.path.abspath(__file__))


def table(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(f)]
    except Exception:
        return []


def fl(text):
    try:
        return None if text in ("", None) else float(text)
    except ValueError:
        return "bad:" + text


def integer(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def read_out(out):
    """The three tables of an output folder, as comparable tuples."""
    res = {"curve": {}, "monthly": {}, "summary": {}}
    for r in table(os.path.join(out, "curve.csv")):
        res["curve"][(r.get("turbine"), integer(r.get("bin")))] = (integer(r.get("n")), fl(r.get("ws_mean")), fl(r.get("power_kw")), integer(r.get("filled")))
    for r in table(os.path.join(out, "monthly.csv")):
        res["monthly"][(r.get("turbine"), r.get("month"))] = (integer(r.get("records")), integer(r.get("used")), fl(r.get("energy_mwh")),
                                                               fl(r.get("available_h")), fl(r.get("unavailable_h")), fl(r.get("availability_pct")))
    for r in table(os.path.join(out, "summary.csv")):
        res["summary"][r.get("turbine")] = (integer(r.get("used")), integer(r.get("curve_bins")), fl(r.get("aep_mwh")), fl(r.get("availability_pct")))
    return res


# tolerance per column: None = exact
TOL = {"curve": (None, 0.0015, 0.015, None), "monthly": (None, None, 0.0015, 0.015, 0.015, 0.0015),
       "summary": (None, None, 0.015, 0.0015)}


def row_ok(part, w, got):
    if got is None or len(got) != len(w):
        return False
    for tol, a, b in zip(TOL[part], w, got):
        if tol is None or a is None or b is None or isinstance(b, str):
            if a != b:
                return False
        elif abs(a - b) > tol:
            return False
    return True


def score_run(want, got, parts=("curve", "monthly", "summary")):
    """Mean over the tables of the share of rows (expected or written) that are exact."""
    shares = []
    for part in parts:
        keys = set(want[part]) | set(got[part])
        ok = sum(1 for key in keys if key in want[part] and row_ok(part, want[part][key], got[part].get(key)))
        shares.append(1.0 if not keys else ok / len(keys))
    return sum(shares) / len(shares)


def read_findings(path):
    return {(r.get("claim_id"), r.get("reason")): fl(r.get("corrected")) for r in table(path)}


def score_audit(want, got):
    """want: {(claim_id, reason, corrected text)}; a row counts when id, reason and corrected agree."""
    w = {(c, r): fl(v) for c, r, v in want}
    n = max(len(w), len(got))
    if n == 0:
        return 1.0
    hits = 0
    for key, v in w.items():
        if key in got:
            gv = got[key]
            hits += (v is None and gv is None) or (v is not None and isinstance(gv, float) and abs(v - gv) <= 0.015)
    return hits / n


def write_files(d, files):
    for name, data in sorted(files.items()):
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def make_site(rng, kind, tag):
    files, site, series = gen.build(rng, kind)
    want = ref.expected(site, series)
    d = os.path.join(TMP, tag)
    write_files(os.path.join(d, "site"), files)
    case = {"tag": tag, "dir": os.path.join(d, "site"), "want": want}
    if kind == "mixed":
        data, findings = gen.claims(rng, site, series, want)
        write_files(d, {"claims.csv": data})
        case["claims"] = os.path.join(d, "claims.csv")
        case["findings"] = findings
    for name in sorted(files):
        g.digest(name.encode() + files[name])
    return case


def prepare(kind, n):
    try:
        rng = random.Random("%d/%s" % (SEED, kind))
        return [generate(make_site, rng, kind, "%s%d" % (kind, i)) for i in range(n)]
    except Exception as e:  # reported by that kind's check
        return e


def run_case(tag, site_dir, want, parts=("curve", "monthly", "summary")):
    out = os.path.join(TMP, tag + "-out")
    code, _, err = run(["python3", TOOL, "run", site_dir, out], timeout=60)
    s = score_run(want, read_out(out), parts)
    return s, "%s: %.3f%s" % (tag, s, (" exit %s %s" % (code, err.strip()[-120:])) if code else "")


def audit_case(tag, site_dir, claims, findings):
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOOL, "audit", site_dir, claims, out], timeout=60)
    s = score_audit(findings, read_findings(out))
    return s, "%s audit: %.3f%s" % (tag, s, (" exit %s %s" % (code, err.strip()[-120:])) if code else "")


def hidden(kind, parts=("curve", "monthly", "summary")):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        if kind == "mixed":
            res = [audit_case(c["tag"], c["dir"], c["claims"], c["findings"]) for c in cases]
        else:
            res = [run_case(c["tag"], c["dir"], c["want"], parts) for c in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def expected_tables(folder):
    return read_out(folder)


def stage(src, tag):
    dst = os.path.join(TMP, "given", tag)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def expected_findings(path):
    return {(r.get("claim_id"), r.get("reason"), r.get("corrected")) for r in table(path)}


def public():
    ok = []
    msgs = []
    for ex in ("example1", "example2"):
        src = os.path.join(HERE, "examples", ex)
        d = stage(os.path.join(src, "site"), ex)
        s, m1 = run_case(ex, d, expected_tables(os.path.join(src, "expected")))
        claims = os.path.join(TMP, "given", ex + "-claims.csv")
        shutil.copyfile(os.path.join(src, "claims.csv"), claims)
        a, m2 = audit_case(ex, d, claims, expected_findings(os.path.join(src, "expected", "audit.csv")))
        ok.append(s == 1.0 and a == 1.0)
        msgs += [m1, m2]
    return float(all(ok)), "; ".join(msgs)


def shipped():
    """The shipped farm's report (70%) and the audit of the operator's claims (30%)."""
    src = os.path.join(HERE, "shipped")
    d = stage(os.path.join(src, "farm"), "farm")
    s, m1 = run_case("farm", d, expected_tables(os.path.join(src, "expected")))
    claims = os.path.join(TMP, "given", "farm-claims.csv")
    shutil.copyfile(os.path.join(src, "farm", "claims", "operator-claims.csv"), claims)
    a, m2 = audit_case("farm", d, claims, expected_findings(os.path.join(src, "expected", "audit.csv")))
    return 0.7 * s + 0.3 * a, m1 + "; " + m2


CASES = {k: prepare(k, n) for k, n in (("readers", 2), ("filters", 2), ("curve", 2), ("aep", 2), ("mixed", 2))}
g.check("public_examples", public)
g.check("hidden_readers", hidden("readers"))
g.check("hidden_filters", hidden("filters"))
g.check("hidden_curve", hidden("curve"))
g.check("hidden_aep", hidden("aep", ("summary", "monthly")))
g.check("farm_report", shipped)
g.check("hidden_audit", hidden("mixed"))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
