"""Grades the repaired /app/stationqc.py: `run` and `audit` on the public examples, on seeded hidden
network folders planned by gen.py (answers read off the plan), and on the grader's own copies of
the shipped months against their answers in tests/shipped."""
import csv
import io
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import WORK, Grader, generate, rng_for, run  # noqa: E402
import gen  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "stationqc.py")
# The grader's own copies of the examples and the shipped months: /app is the agent's to edit.
HERE = os.path.dirname(os.path.abspath(__file__))
COUNTS = ["n_obs", "n_valid", "n_missing", "n_range", "n_clim", "n_persist", "n_spike"]
VIEW = {
    "readers": ["n_obs", "n_valid", "n_missing", "n_range", "mean_c"],
    "qc": ["n_valid", "n_missing", "n_range", "n_clim", "n_persist", "n_spike"],
    "daily": gen.DAILY_COLUMNS[2:],
}


def parse_table(text):
    try:
        rdr = csv.DictReader(io.StringIO(text))
        return [{(k or "").strip(): (v or "").strip() for k, v in r.items() if k is not None} for r in rdr]
    except Exception:
        return []


def slurp(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except Exception:
        return ""


def agree(want, got):
    """Integers exactly, decimals within 0.011, empty only against empty."""
    if want == "" or got == "":
        return want == got
    try:
        if "." not in want:
            return int(got) == int(want)
        return abs(float(got) - float(want)) <= 0.011
    except ValueError:
        return False


def keyed(rows, key_cols):
    return {tuple(r.get(c, "") for c in key_cols): r for r in rows}


def bad_stations(want_text, got_text, cols, key_cols=("station", "date")):
    """Stations with a missing, extra or wrong row in the given columns, each with a reason."""
    want = keyed(parse_table(want_text), key_cols)
    got = keyed(parse_table(got_text), key_cols)
    bad = {}
    for k in set(want) | set(got):
        if k not in got:
            bad.setdefault(k[0], "%s missing" % (k,))
        elif k not in want:
            bad.setdefault(k[0], "%s not expected" % (k,))
        else:
            for c in cols:
                if not agree(want[k].get(c, ""), got[k].get(c, "")):
                    bad.setdefault(k[0], "%s %s: want %r got %r" % (k, c, want[k].get(c), got[k].get(c)))
                    break
    return bad, sorted({k[0] for k in want} | {k[0] for k in got})


def norm(x):
    x = (x or "").strip()
    try:
        return "%.2f" % float(x)
    except ValueError:
        return x


def findings_score(want_rows, got_text):
    """Share of expected findings reproduced (extra findings count against it)."""
    got = [(r.get("station", ""), r.get("date", ""), r.get("reason", ""), r.get("field", ""),
            norm(r.get("reported")), r.get("corrected", "")) for r in parse_table(got_text)]
    hits = 0
    pool = list(got)
    for w in want_rows:
        for i, h in enumerate(pool):
            if h[:4] == tuple(w[:4]) and h[4] == norm(w[4]) and agree(w[5], h[5]):
                hits += 1
                del pool[i]
                break
    n = max(len(want_rows), len(got))
    return (1.0 if n == 0 else hits / n), "%d/%d findings, %d reported" % (hits, len(want_rows), len(got))


def lay_out(folder, files):
    for name, data in sorted(files.items()):
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)


def prepare(kind, n):
    """Every hidden folder of a kind with its answer, planned before any submitted program runs."""
    try:
        rng = random.Random(rng_for("hidden_" + kind).next_u32())
        mode = "full" if kind == "audit" else kind
        cases = []
        for i in range(n):
            files, truth = generate(gen.build, rng, mode, None, None, 4, kind == "audit")
            d = os.path.join(TMP, "%s%d" % (kind, i))
            lay_out(d, files)
            cases.append((d, truth))
        return cases
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def do_run(folder, tag):
    out = os.path.join(TMP, tag + "-out")
    code, _, err = run(["python3", TOOL, "run", folder, out], timeout=60)
    note = (" exit %s %s" % (code, err.strip()[-120:])) if code else ""
    return slurp(os.path.join(out, "daily.csv")), slurp(os.path.join(out, "flags.csv")), note


def do_audit(folder, agency, tag):
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOOL, "audit", folder, agency, out], timeout=60)
    note = (" exit %s %s" % (code, err.strip()[-120:])) if code else ""
    return slurp(out), note


def finding_rows(truth):
    return sorted(truth["findings"])


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        ok, notes = 0, []
        for i, (d, truth) in enumerate(cases):
            tag = "%s%d" % (kind, i)
            if kind == "audit":
                got, note = do_audit(d, os.path.join(d, "agency", "daily.csv"), tag)
                s, m = findings_score(finding_rows(truth), got)
                good = s == 1.0
                notes.append("%s: %s%s" % (tag, m, note))
            else:
                daily, flags, note = do_run(d, tag)
                bad, _ = bad_stations(gen.daily_text(truth["daily"]), daily, VIEW[kind])
                if kind == "daily":
                    more, _ = bad_stations(gen.summary_text(truth["summary"]), flags, gen.SUMMARY_COLUMNS[1:], ("station",))
                    for k, v in more.items():
                        bad.setdefault(k, "flags.csv " + v)
                good = not bad
                notes.append("%s: %s%s" % (tag, "exact" if good else sorted(bad.values())[0], note))
            ok += good
        return ok / len(cases), "%d/%d cases exact; %s" % (ok, len(cases), "; ".join(notes))
    return fn


def stage(src, tag):
    dst = os.path.join(TMP, "public", tag)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def public():
    good = []
    for ex in ("example1", "example2"):
        src = os.path.join(HERE, "examples", ex)
        d = stage(os.path.join(src, "input"), ex)
        daily, flags, _ = do_run(d, ex)
        b1, _ = bad_stations(slurp(os.path.join(src, "expected", "daily.csv")), daily, gen.DAILY_COLUMNS[2:])
        b2, _ = bad_stations(slurp(os.path.join(src, "expected", "flags.csv")), flags, gen.SUMMARY_COLUMNS[1:], ("station",))
        want = [tuple(r.get(c, "") for c in ("station", "date", "reason", "field", "reported", "corrected"))
                for r in parse_table(slurp(os.path.join(src, "expected", "audit.csv")))]
        got, _ = do_audit(d, os.path.join(d, "agency", "daily.csv"), ex)
        s, _ = findings_score(want, got)
        good.append(not b1 and not b2 and s == 1.0)
    return float(all(good)), "examples right: %s" % good


def shipped():
    """The July run (70%, share of stations whose daily rows and flag summary are exact) and the
    audit of the agency's June table (30%, share of findings)."""
    src = os.path.join(HERE, "shipped", "2026-07")
    daily, flags, note = do_run(stage(os.path.join(src, "input"), "2026-07"), "2026-07")
    b1, names = bad_stations(slurp(os.path.join(src, "expected", "daily.csv")), daily, gen.DAILY_COLUMNS[2:])
    b2, _ = bad_stations(slurp(os.path.join(src, "expected", "flags.csv")), flags, gen.SUMMARY_COLUMNS[1:], ("station",))
    wrong = set(b1) | set(b2)
    s = (len(names) - len(wrong & set(names))) / len(names) if names else 0.0
    prev = os.path.join(HERE, "shipped", "2026-06")
    d = stage(os.path.join(prev, "input"), "2026-06")
    want = [tuple(r.get(c, "") for c in ("station", "date", "reason", "field", "reported", "corrected"))
            for r in parse_table(slurp(os.path.join(prev, "expected", "audit.csv")))]
    got, note2 = do_audit(d, os.path.join(d, "agency", "daily.csv"), "2026-06")
    a, m = findings_score(want, got)
    return 0.7 * s + 0.3 * a, "July run: %d/%d stations exact%s; June audit: %s%s" % (
        len(names) - len(wrong & set(names)), len(names), note, m, note2)


CASES = {k: prepare(k, 4) for k in ("readers", "qc", "daily", "audit")}
g.check("public_examples", public)
g.check("hidden_readers", hidden("readers"))
g.check("hidden_qc", hidden("qc"))
g.check("hidden_daily", hidden("daily"))
g.check("hidden_audit", hidden("audit"))
g.check("shipped_month", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
