"""Grades /app/heatwave.py on the public examples and seeded hidden archives with planted heatwaves."""
import csv
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "heatwave.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
OUTPUTS = ("cells.csv", "thresholds.csv", "events.csv", "regional.csv", "audit.csv")


def coord(s):
    return round(float(s), 3)


def read_rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as fh:
        return [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(fh)]


def near(text, want, tol):
    try:
        return abs(float(text) - want) <= tol
    except (TypeError, ValueError):
        return False


def share(expected, got, same):
    """Rows of `got` keyed like `expected`; right rows over expected plus surplus rows."""
    right = sum(1 for k, e in expected.items() if k in got and same(e, got[k]))
    surplus = sum(1 for k in got if k not in expected)
    return right / max(1, len(expected) + surplus)


def score_cells(truth, out):
    got = {}
    for r in read_rows(os.path.join(out, "cells.csv")):
        got[(coord(r["lat"]), coord(r["lon"]))] = r
    exp = {(coord(c[0]), coord(c[1])): v for c, v in truth["cells"].items()}
    return share(exp, got, lambda e, r: r.get("n_valid") == str(e[0]) and r.get("n_missing") == str(e[1])
                 and near(r.get("mean_c"), e[2], 0.002))


def score_thresholds(truth, out):
    got = {}
    for r in read_rows(os.path.join(out, "thresholds.csv")):
        got[(coord(r["lat"]), coord(r["lon"]), int(r["doy"]))] = r
    exp = {(coord(k[0]), coord(k[1]), k[2]): v for k, v in truth["thresholds"].items()}
    return share(exp, got, lambda e, r: near(r.get("threshold_c"), e, 0.002))


def score_events(truth, out):
    got = {}
    for r in read_rows(os.path.join(out, "events.csv")):
        got[(coord(r["lat"]), coord(r["lon"]), r["start"])] = r
    exp = {(coord(k[0]), coord(k[1]), k[2]): v for k, v in truth["events"].items()}
    return share(exp, got, lambda e, r: r.get("end") == e[0] and r.get("days") == str(e[1])
                 and near(r.get("max_excess_c"), e[2], 0.002))


def score_regional(truth, out):
    got = {(r["region"], r["start"]): r for r in read_rows(os.path.join(out, "regional.csv"))}
    return share(truth["regional"], got, lambda e, r: r.get("end") == e[0] and r.get("days") == str(e[1])
                 and near(r.get("peak_extent"), e[2], 0.00051))


def score_audit(truth, out):
    got = {}
    for r in read_rows(os.path.join(out, "audit.csv")):
        eid = r.get("event_id", "")
        got[(eid, r.get("region"), r.get("start"), r.get("end")) if eid == "" else eid] = r.get("verdict")
    exp = {}
    for k, v in truth["audit"].items():
        exp[k if k[0] == "" else k[0]] = v
    return share(exp, got, lambda e, r: r == e)


SCORERS = (("reader", score_cells), ("thresholds", score_thresholds), ("events", score_events),
           ("regional", score_regional), ("audit", score_audit))

# Hidden cases: three archives per seed, one per calendar family, header variants drawn per seed
# with at least one big-endian archive, one in kelvin and three different fill values.
rng = random.Random("%d/heatwave" % SEED)
cals = ["360", "365", "greg"]
rng.shuffle(cals)
orders = ["<", ">", rng.choice("<>")]
rng.shuffle(orders)
units = ["K", "C", rng.choice("KC")]
rng.shuffle(units)
fills = rng.sample(gen.SENTINELS, 3)
# Base periods of 4, 5 and 6 years: pools of 20 and 30 values make 0.9·N a whole number.
bases = [4, 5, 6]
rng.shuffle(bases)
hidden = {}
for i in range(3):
    variant = dict(cal=cals[i], order=orders[i], units=units[i], fill=fills[i], base_years=bases[i])
    files, truth = generate(gen.build_case, random.Random("%d/case%d" % (SEED, i)), variant)
    d = os.path.join(TMP, "case%d" % i, "input")
    os.makedirs(d)
    for name in sorted(files):
        with open(os.path.join(d, name), "wb") as fh:
            fh.write(files[name])
        g.digest(name.encode() + files[name])
    hidden[i] = (d, truth, variant)

ran = {}


def outputs(i):
    """Runs the tool once per hidden case; later subtasks reuse the output folder."""
    if i not in ran:
        d = hidden[i][0]
        out = os.path.join(os.path.dirname(d), "output")
        code, _, err = run(["python3", TOOL, d, out], timeout=120)
        ran[i] = (out, code, err.strip()[-200:])
    return ran[i]


def hidden_check(label, scorer):
    def fn():
        scores, notes = [], []
        for i in sorted(hidden):
            out, code, err = outputs(i)
            v = hidden[i][2]
            tag = "%s/%s/%s/%d/%dy" % (v["cal"], v["order"], v["units"], v["fill"], v["base_years"])
            if code != 0:
                scores.append(0.0)
                notes.append("%s: exit %s %s" % (tag, code, err))
                continue
            try:
                s = scorer(hidden[i][1], out)
            except (KeyError, ValueError) as e:
                s = 0.0
                notes.append("%s: unreadable output (%s)" % (tag, e))
            scores.append(s)
            notes.append("%s: %.3f" % (tag, s))
        return sum(scores) / len(scores), "%s; " % label + "; ".join(notes)
    return fn


def read_expected(folder):
    """The shipped answers of a public example as the same truth structure the scorers take."""
    truth = {"cells": {}, "thresholds": {}, "events": {}, "regional": {}, "audit": {}}
    for r in read_rows(os.path.join(folder, "cells.csv")):
        truth["cells"][(float(r["lat"]), float(r["lon"]))] = (int(r["n_valid"]), int(r["n_missing"]), float(r["mean_c"]))
    for r in read_rows(os.path.join(folder, "thresholds.csv")):
        truth["thresholds"][(float(r["lat"]), float(r["lon"]), int(r["doy"]))] = float(r["threshold_c"])
    for r in read_rows(os.path.join(folder, "events.csv")):
        truth["events"][(float(r["lat"]), float(r["lon"]), r["start"])] = (r["end"], int(r["days"]), float(r["max_excess_c"]))
    for r in read_rows(os.path.join(folder, "regional.csv")):
        truth["regional"][(r["region"], r["start"])] = (r["end"], int(r["days"]), float(r["peak_extent"]))
    for r in read_rows(os.path.join(folder, "audit.csv")):
        truth["audit"][(r["event_id"], r["region"], r["start"], r["end"])] = r["verdict"]
    return truth


def public():
    res = []
    for ex in ("example1", "example2"):
        src = os.path.join(PUB, ex)
        inp = os.path.join(TMP, "public", ex, "input")
        shutil.copytree(os.path.join(src, "input"), inp)
        out = os.path.join(TMP, "public", ex, "output")
        code, _, err = run(["python3", TOOL, inp, out], timeout=120)
        if code != 0:
            res.append("%s: exit %s %s" % (ex, code, err.strip()[-160:]))
            continue
        truth = read_expected(os.path.join(src, "expected"))
        parts = [f(truth, out) for _, f in SCORERS]
        res.append(all(p == 1.0 for p in parts) or "%s: %s" % (ex, ["%.3f" % p for p in parts]))
    return float(all(x is True for x in res)), "examples right: %s" % res


g.check("public_examples", public)
for label, scorer in SCORERS:
    g.check("hidden_" + label, hidden_check(label, scorer))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
